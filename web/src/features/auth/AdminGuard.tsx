import { Alert, Center, Heading } from '@chakra-ui/react';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { usePageTitle } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { useSession } from './queries';
import { forgetReturnPath, loginPathFor, readReturnPath } from './return-to';

/**
 * Document 1, section 6. While the session is checked it shows nothing and stays put (a full page
 * load does not bounce through /login); signed out (never, or expired mid-visit) it goes to /login,
 * which brings the user back here; a signed-in non-admin sees Access Denied. After the OpenID
 * Connect round trip it returns to the page the user was on.
 */
export function AdminGuard({ children, denied }: { children: ReactNode; /** What a non-admin sees instead of Access Denied. */ denied?: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const returnTo = session.state === 'signed-in' ? readReturnPath() : null;
  useEffect(() => {
    if (returnTo && returnTo === here) forgetReturnPath();
  }, [returnTo, here]);

  if (session.state === 'checking') return null;
  if (session.state === 'signed-out') return <Navigate to={loginPathFor(here)} replace />;
  if (returnTo && returnTo !== here) return <Navigate to={returnTo} replace />;
  if (!session.user.isAdmin) return denied ?? <AccessDenied />;
  return children;
}

function AccessDenied() {
  const { t } = useTexts();
  return <DeniedNotice title={t('auth.accessDeniedTitle')} lines={[t('auth.accessDeniedBody'), t('auth.accessDeniedHint')]} testId="access-denied" />;
}

/** A whole page telling a signed-in user this is not for them: the title is its h1 and its tab's title. */
export function DeniedNotice({ title, lines, testId }: { title: string; lines: string[]; testId: string }) {
  usePageTitle(title);
  return (
    <Center minH="100vh" p="4">
      <Alert.Root status="error" maxW="lg" data-testid={testId}>
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title asChild>
            <Heading as="h1" size="md">{title}</Heading>
          </Alert.Title>
          {lines.map((line, index) => (
            <Alert.Description key={line} mt={index > 0 ? '2' : undefined}>{line}</Alert.Description>
          ))}
        </Alert.Content>
      </Alert.Root>
    </Center>
  );
}
