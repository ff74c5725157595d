import { SimpleGrid, Stat } from '@chakra-ui/react';
import { useTexts } from '../../i18n';

/** A row of labelled counts (a report's totals, a check's outcome): two columns on a phone, one row from `sm`. */
export function CountGrid({ counts }: { counts: { field: string; label: string; value: number }[] }) {
  const { format } = useTexts();
  return (
    <SimpleGrid columns={{ base: 2, sm: counts.length }} gap="2">
      {counts.map(({ field, label, value }) => (
        <Stat.Root key={field} borderWidth="1px" borderRadius="md" p="2" data-count={field}>
          <Stat.Label>{label}</Stat.Label>
          <Stat.ValueText>{format.number(value)}</Stat.ValueText>
        </Stat.Root>
      ))}
    </SimpleGrid>
  );
}
