import { Box, Button, Flex, Separator, Stack, Text } from '@chakra-ui/react';
import { Link, useLocation } from 'react-router';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useTexts } from '../i18n';
import { authPaths } from '../features/auth/api';
import { useServerInfo } from './queries';
import { integrationLinks, sectionLabels, sections, useSection } from './navigation';

/** The navigation list shared by the fixed desktop sidebar and the mobile drawer. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTexts();
  const [current, select] = useSection();
  const { pathname } = useLocation();
  return (
    <Flex direction="column" h="full" as="nav" aria-label={t('nav.sections')}>
      <Stack gap="1" flex="1" overflowY="auto" p="3">
        <GroupTitle>{t('nav.sections')}</GroupTitle>
        {sections.map((section) => (
          <Button
            key={section}
            variant={current === section ? 'subtle' : 'ghost'}
            justifyContent="flex-start"
            aria-current={current === section ? 'page' : undefined}
            data-section={section}
            onClick={() => {
              select(section);
              onNavigate?.();
            }}
          >
            {t(sectionLabels[section])}
          </Button>
        ))}
        <GroupTitle>{t('nav.integrations')}</GroupTitle>
        {integrationLinks.map(({ path, label }) => (
          <Button key={path} asChild variant={pathname === path ? 'subtle' : 'ghost'} justifyContent="flex-start">
            <Link to={path} onClick={onNavigate} aria-current={pathname === path ? 'page' : undefined}>
              {t(label)}
            </Link>
          </Button>
        ))}
      </Stack>
      <Separator />
      <SidebarFooter />
    </Flex>
  );
}

function GroupTitle({ children }: { children: string }) {
  return (
    <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" px="3" pt="3" pb="1">
      {children}
    </Text>
  );
}

function SidebarFooter() {
  const { t } = useTexts();
  const { data } = useServerInfo();
  const node = data?.runtime?.node;
  return (
    <Stack p="4" gap="3">
      <Box>
        <Flex align="center" gap="2">
          <Box w="2" h="2" rounded="full" bg="green.500" />
          <Text fontSize="sm" fontWeight="medium">{t('sidebar.serverRunning')}</Text>
        </Flex>
        <Text fontSize="xs" color="fg.muted" data-testid="runtime-version">
          {node ? t('sidebar.runtime', { version: node }) : t('sidebar.runtimeUnknown')}
        </Text>
      </Box>
      <LanguageSwitch />
      {/* A full-page navigation: the gateway ends the session and redirects. */}
      <Button variant="outline" size="sm" onClick={() => window.location.assign(authPaths.logout)}>
        {t('nav.logout')}
      </Button>
    </Stack>
  );
}
