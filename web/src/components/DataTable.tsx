import { Table, type TableCellProps, type TableScrollAreaProps, type TableColumnHeaderProps, type TableRowProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  headerProps?: TableColumnHeaderProps;
  cellProps?: TableCellProps;
}

export interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** A stable identity per row (never its index: rows move when the data is refetched). */
  rowKey: (row: Row) => string;
  rowProps?: (row: Row) => TableRowProps & Record<`data-${string}`, string>;
  caption?: string;
  testId?: string;
  striped?: boolean;
  /** A height past which the rows scroll inside the table's own box, under a header that stays. */
  maxH?: TableScrollAreaProps['maxH'];
}

/** A table that scrolls sideways on narrow screens (and down past `maxH`); the caption (visually hidden) names it for screen readers. */
export function DataTable<Row>({ columns, rows, rowKey, rowProps, caption, testId, striped = true, maxH }: DataTableProps<Row>) {
  return (
    <Table.ScrollArea maxH={maxH} borderWidth={maxH === undefined ? undefined : '1px'} rounded={maxH === undefined ? undefined : 'md'}>
      <Table.Root size="sm" striped={striped} stickyHeader={maxH !== undefined} data-testid={testId}>
        {caption && <Table.Caption srOnly>{caption}</Table.Caption>}
        <Table.Header>
          <Table.Row>
            {columns.map((column) => (
              <Table.ColumnHeader key={column.key} whiteSpace="nowrap" {...column.headerProps}>{column.header}</Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column) => (
                <Table.Cell key={column.key} {...column.cellProps}>{column.cell(row)}</Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
