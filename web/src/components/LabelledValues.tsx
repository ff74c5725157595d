import { DataList } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A record's facts as label and value lines (a dialog's head: when, who, status…). */
export function LabelledValues({ items }: { items: readonly (readonly [string, ReactNode])[] }) {
  return (
    <DataList.Root orientation="horizontal" size="sm" gap="2">
      {items.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel minW="28">{label}</DataList.ItemLabel>
          <DataList.ItemValue minW="0">{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}
