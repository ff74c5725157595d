import { Box, type BoxProps } from '@chakra-ui/react';

/**
 * A value as indented JSON (a text as it is) in a block that scrolls inside itself: a long payload
 * never widens the page. `maxH` limits its height (20rem by default).
 */
export function JsonBlock({ value, testId, maxH = '80' }: { value: unknown; testId?: string; maxH?: BoxProps['maxH'] }) {
  const text = value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <Box as="pre" fontFamily="mono" fontSize="xs" bg="bg" borderWidth="1px" borderRadius="md" p="3" overflowX="auto" maxH={maxH} overflowY="auto" whiteSpace="pre" data-testid={testId}>
      {text}
    </Box>
  );
}
