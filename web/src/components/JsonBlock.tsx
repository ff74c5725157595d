import { Box, Text, type BoxProps } from '@chakra-ui/react';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A value as indented JSON (a text as it is) in a block that scrolls inside itself: a long payload
 * never widens the page. `maxH` limits its height (20rem by default). `highlight` marks these
 * top-level fields of an object (what an edit changed), each line of theirs on a coloured band;
 * the text is the same JSON either way.
 */
export function JsonBlock({ value, testId, maxH = '80', highlight }: { value: unknown; testId?: string; maxH?: BoxProps['maxH']; highlight?: readonly string[] }) {
  const text = value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <Box as="pre" fontFamily="mono" fontSize="xs" bg="bg" borderWidth="1px" borderRadius="md" p="3" overflowX="auto" maxH={maxH} overflowY="auto" whiteSpace="pre" data-testid={testId}>
      {highlight && highlight.length > 0 && isPlainObject(value) ? <FieldLines value={value} highlight={highlight} /> : text}
    </Box>
  );
}

/**
 * A value's JSON under its label, as a cell of a grid (it never widens the grid): the two sides of
 * a request, an example's body and answer, an audit entry's before and after. `empty` is shown
 * instead of the block when there is no value.
 */
export function LabelledJson({ label, value, empty, testId, maxH, highlight }: { label: string; value: unknown; empty?: string; testId?: string; maxH?: BoxProps['maxH']; highlight?: readonly string[] }) {
  return (
    <Box minW="0">
      <Text fontSize="sm" fontWeight="semibold" mb="1">{label}</Text>
      {empty !== undefined && (value === undefined || value === null) ? (
        <Text fontSize="sm" color="fg.muted" data-testid={testId}>{empty}</Text>
      ) : (
        <JsonBlock value={value} testId={testId} maxH={maxH} highlight={highlight} />
      )}
    </Box>
  );
}

/** An object's JSON a field at a time (each field's lines a block of their own), the highlighted ones on a band as wide as the longest line. */
function FieldLines({ value, highlight }: { value: Record<string, unknown>; highlight: readonly string[] }) {
  const entries = Object.entries(value);
  return (
    <Box as="span" display="block" w="max-content" minW="full">
      {'{'}
      {entries.map(([field, item], index) => {
        const marked = highlight.includes(field);
        return (
          <Box as="span" display="block" key={field} bg={marked ? 'yellow.subtle' : undefined} data-changed={marked ? 'true' : undefined}>
            {`  ${JSON.stringify(field)}: ${JSON.stringify(item, null, 2).replace(/\n/g, '\n  ')}${index < entries.length - 1 ? ',' : ''}`}
          </Box>
        );
      })}
      {'}'}
    </Box>
  );
}
