import { Box, CloseButton, Drawer, Flex, IconButton, Portal, Text } from '@chakra-ui/react';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useTexts } from '../i18n';
import { Sidebar } from './Sidebar';

const SIDEBAR_WIDTH = '64';

/** Header and sidebar around every admin page: a sidebar that stays put on desktop, a slide-in drawer on mobile. */
export function Shell() {
  const { t } = useTexts();
  const [drawerOpen, setDrawerOpen] = useState(false);
  return (
    <Flex minH="100vh" bg="bg.subtle">
      {/* The column (and its background) runs the page's full height; the navigation inside it sticks to the viewport. */}
      <Box as="aside" hideBelow="md" flexShrink="0" w={SIDEBAR_WIDTH} bg="bg" borderRightWidth="1px">
        <Box position="sticky" top="0" h="100vh">
          <Sidebar />
        </Box>
      </Box>

      <Drawer.Root open={drawerOpen} onOpenChange={(event) => setDrawerOpen(event.open)} placement="start">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content maxW="72" data-testid="mobile-drawer">
              <Drawer.Header borderBottomWidth="1px">
                <Drawer.Title>{t('app.title')}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body p="0">
                <Sidebar onNavigate={() => setDrawerOpen(false)} />
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>

      {/* minW 0 lets wide content (the price table) scroll inside the page instead of widening it. */}
      <Box flex="1" minW="0">
        <Flex as="header" h="14" align="center" gap="3" px={{ base: '3', md: '8' }} bg="bg" borderBottomWidth="1px" position="sticky" top="0" zIndex="docked">
          <IconButton hideFrom="md" variant="ghost" aria-label={t('nav.openMenu')} onClick={() => setDrawerOpen(true)}>
            <MenuIcon />
          </IconButton>
          {/* The app's name, not the page's: each page's own title is its one h1. */}
          <Text fontSize="lg" fontWeight="semibold" flex="1">{t('app.title')}</Text>
          <Box hideFrom="md">
            <LanguageSwitch />
          </Box>
        </Flex>
        <Box as="main" p={{ base: '4', md: '8' }} maxW="1400px">
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Flex>
  );
}

function MenuIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M3 6h18M3 12h18M3 18h18" />
    </svg>
  );
}
