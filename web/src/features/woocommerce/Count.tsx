import { Box, Text } from '@chakra-ui/react';
import { useTexts } from '../../i18n';

/** One figure of a result: a label over a number (or a short name), coloured when it needs attention. */
export function Count({ label, value, palette, testId }: { label: string; value: number | string; palette?: string; testId?: string }) {
  const { format } = useTexts();
  return (
    <Box borderWidth="1px" borderRadius="md" px="3" py="2" data-testid={testId}>
      <Text fontSize="xs" color="fg.muted" fontWeight="medium">{label}</Text>
      <Text fontSize="2xl" fontWeight="semibold" color={palette ? `${palette}.600` : undefined} truncate>
        {typeof value === 'number' ? format.number(value) : value}
      </Text>
    </Box>
  );
}
