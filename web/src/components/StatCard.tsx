import { Card, Stat } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function StatCard({ label, value, caption }: { label: string; value: ReactNode; caption?: string }) {
  return (
    <Card.Root size="sm">
      <Card.Body>
        <Stat.Root>
          <Stat.Label>{label}</Stat.Label>
          <Stat.ValueText>{value}</Stat.ValueText>
          {caption && <Stat.HelpText>{caption}</Stat.HelpText>}
        </Stat.Root>
      </Card.Body>
    </Card.Root>
  );
}
