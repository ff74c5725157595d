import { Box } from '@chakra-ui/react';

/** A value as indented JSON in a block that scrolls inside itself (a long payload never widens the page). */
export function JsonBlock({ value, testId }: { value: unknown; testId?: string }) {
  const text = value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <Box as="pre" fontFamily="mono" fontSize="xs" bg="bg" borderWidth="1px" borderRadius="md" p="3" overflowX="auto" maxH="80" overflowY="auto" whiteSpace="pre" data-testid={testId}>
      {text}
    </Box>
  );
}
