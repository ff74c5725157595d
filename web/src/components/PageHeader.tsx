import { Box, Flex, Heading, Text } from '@chakra-ui/react';
import { useEffect, type ReactNode } from 'react';
import { useTexts } from '../i18n';

/** The browser tab names the page: '{page} · API Dashboard'. */
export function usePageTitle(page: string): void {
  const { t } = useTexts();
  useEffect(() => {
    document.title = t('app.pageTitle', { page });
  }, [t, page]);
}

/** The page's one h1 (and its tab title); sections below it use h2, cards inside those h3. */
export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: string; actions?: ReactNode }) {
  usePageTitle(title);
  return (
    <Flex gap="3" justify="space-between" align={{ base: 'stretch', md: 'center' }} direction={{ base: 'column', md: 'row' }} mb="6">
      <Box>
        <Heading as="h1" size="xl">{title}</Heading>
        {subtitle && <Text color="fg.muted">{subtitle}</Text>}
      </Box>
      {actions && <Flex gap="2" wrap="wrap">{actions}</Flex>}
    </Flex>
  );
}
