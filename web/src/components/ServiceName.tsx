import { Box } from '@chakra-ui/react';

/** A service's name (the process that owns a row or a run), small and in monospace, as the tables show it. */
export function ServiceName({ service }: { service: string }) {
  return (
    <Box as="span" fontFamily="mono" fontSize="xs" whiteSpace="nowrap">
      {service}
    </Box>
  );
}
