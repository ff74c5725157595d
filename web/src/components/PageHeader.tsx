import { Box, Flex, Heading, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: string; actions?: ReactNode }) {
  return (
    <Flex gap="3" justify="space-between" align={{ base: 'stretch', md: 'center' }} direction={{ base: 'column', md: 'row' }} mb="6">
      <Box>
        <Heading size="xl">{title}</Heading>
        {subtitle && <Text color="fg.muted">{subtitle}</Text>}
      </Box>
      {actions && <Flex gap="2" wrap="wrap">{actions}</Flex>}
    </Flex>
  );
}
