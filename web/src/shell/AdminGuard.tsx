import { Alert, Center } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { t } from '../i18n';
import { useAuthUser } from '../lib/queries';

/**
 * Document 1, section 6: while loading or signed out it renders nothing and goes to /login (which
 * sends a signed-in user back here); a signed-in non-admin sees Access Denied.
 */
export function AdminGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { data: user, isPending, isError } = useAuthUser();
  if (isPending || isError) return <Navigate to="/login" replace state={{ from: location }} />;
  if (!user.isAdmin) return <AccessDenied />;
  return children;
}

function AccessDenied() {
  return (
    <Center minH="100vh" p="4">
      <Alert.Root status="error" maxW="lg" data-testid="access-denied">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t('auth.accessDeniedTitle')}</Alert.Title>
          <Alert.Description>{t('auth.accessDeniedBody')}</Alert.Description>
          <Alert.Description mt="2">{t('auth.accessDeniedHint')}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    </Center>
  );
}
