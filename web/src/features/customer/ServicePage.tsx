import { Badge, Box, Button, Card, Center, DataList, Flex, Heading, Image, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { Dialog } from '../../components/Dialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { usePageTitle } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { errorText, statusOf } from '../../lib/api';
import { notifyError } from '../../lib/toast';
import { serviceNames } from '../streaming-keys/api';
import { CUSTOMER_LOGIN_PATH, type CustomerKey, type ServiceCode } from './api';
import { CodeCard } from './CodeCard';
import { retryLaterOf } from './fetch-result';
import { RetryAlert } from './RetryAlert';
import { useCustomerLogout, useCustomerQr } from './mutations';
import { useCustomerKeys, useCustomerSession } from './queries';
import { EXPIRY_WARNING_DAYS, expiryPalette, expiryTone, serviceCards, servicePagePaths } from './service';

/**
 * /netflix, /disney, /prime, /hulu, /max (document 3 §2): the signed-in customer's key of this
 * service, its expiry (red once expired, yellow within 7 days), and the service's code-fetch cards.
 * Signed out, it is /customer-login; a key of another service is shown the way to its own page.
 */
export default function ServicePage({ service }: { service: ServiceCode }) {
  const { t } = useTexts();
  usePageTitle(serviceNames[service]);
  const session = useCustomerSession();
  const authenticated = session.data?.authenticated === true;
  const keys = useCustomerKeys(authenticated);

  if (session.isPending) return <Loading />;
  if (session.isError) {
    return (
      <Frame service={service}>
        <ErrorAlert title={t('customer.sessionFailed')} description={<RetryButton onRetry={() => void session.refetch()} />} />
      </Frame>
    );
  }
  // Not signed in, or the session ended while the page was open.
  if (!authenticated || statusOf(keys.error) === 401) return <Navigate to={CUSTOMER_LOGIN_PATH} replace />;

  const mine = keys.data?.keys.filter((key) => key.service === service) ?? [];
  const others = keys.data?.keys.filter((key) => key.service !== service) ?? [];
  return (
    <Frame service={service} email={session.data.email}>
      {keys.isPending && <Loading inline />}
      {keys.isError && (
        <ErrorAlert title={t('customer.keysFailed')} description={<>{errorText(keys.error, keys.error.message)} <RetryButton onRetry={() => void keys.refetch()} /></>} />
      )}
      {keys.data && mine.length === 0 && <OtherServices keys={others} />}
      {mine.map((key) => (
        <Stack key={key.id} gap="4">
          <KeyPanel keyView={key} />
          <CodeCards keyView={key} service={service} />
        </Stack>
      ))}
    </Frame>
  );
}

function Frame({ service, email, children }: { service: ServiceCode; email?: string | null; children: ReactNode }) {
  const { t } = useTexts();
  const navigate = useNavigate();
  const leave = () => navigate(CUSTOMER_LOGIN_PATH, { replace: true });
  const logout = useCustomerLogout({
    onSuccess: leave,
    // A session already gone is as good as logged out.
    onError: (error) => (statusOf(error) === 401 ? leave() : notifyError(t('customer.error'), error, t('customer.logoutFailed'))),
  });
  return (
    <Box as="main" minH="100dvh" bg="bg.subtle" px="4" py={{ base: '4', md: '8' }}>
      <Stack maxW="4xl" mx="auto" gap="5">
        <Flex gap="3" justify="space-between" align={{ base: 'stretch', sm: 'center' }} direction={{ base: 'column', sm: 'row' }}>
          <Box minW="0">
            <Heading as="h1" size="2xl">{serviceNames[service]}</Heading>
            {email && <Text color="fg.muted" wordBreak="break-all" data-testid="signed-in-as">{t('customer.signedInAs', { email })}</Text>}
          </Box>
          <Flex gap="2" align="center" justify="space-between" wrap="wrap">
            <LanguageSwitch />
            {email !== undefined && (
              <Button size="sm" variant="outline" loading={logout.isPending} loadingText={t('customer.loggingOut')} onClick={() => logout.mutate()}>{t('customer.logout')}</Button>
            )}
          </Flex>
        </Flex>
        {children}
      </Stack>
    </Box>
  );
}

function KeyPanel({ keyView }: { keyView: CustomerKey }) {
  const { t, format } = useTexts();
  const [qrOpen, setQrOpen] = useState(false);
  const tone = expiryTone(keyView.expiresAt);
  const palette = expiryPalette[tone];
  return (
    <Card.Root size="sm" data-testid="key-panel" data-key-id={keyView.id}>
      <Card.Body>
        <Flex gap="4" justify="space-between" align={{ base: 'stretch', sm: 'flex-start' }} direction={{ base: 'column', sm: 'row' }}>
          <DataList.Root orientation="horizontal" size="sm" flex="1" minW="0">
            <DataList.Item>
              <DataList.ItemLabel minW={{ base: '24', sm: '28' }}>{t('customer.key')}</DataList.ItemLabel>
              <DataList.ItemValue fontFamily="mono" wordBreak="break-all" data-testid="key-text">{keyView.key}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel minW={{ base: '24', sm: '28' }}>{t('customer.account')}</DataList.ItemLabel>
              <DataList.ItemValue wordBreak="break-all" data-testid="key-email">{keyView.email}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel minW={{ base: '24', sm: '28' }}>{t('customer.profile')}</DataList.ItemLabel>
              <DataList.ItemValue data-testid="key-profile">{t('customer.profileNumber', { number: keyView.profileNumber })}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel minW={{ base: '24', sm: '28' }}>{t('customer.expires')}</DataList.ItemLabel>
              <DataList.ItemValue>
                <Flex gap="2" align="center" wrap="wrap">
                  <Text as="span" color={tone === 'ok' ? undefined : `${palette}.fg`} fontWeight={tone === 'ok' ? undefined : 'semibold'} data-testid="key-expiry" data-tone={tone}>
                    {format.dateTime(keyView.expiresAt)}
                  </Text>
                  <Badge colorPalette={palette}>{t(`customer.expiry.${tone}`, { days: EXPIRY_WARNING_DAYS })}</Badge>
                  {keyView.status === 'Used' && <Badge colorPalette="gray">{t('customer.inactive')}</Badge>}
                </Flex>
              </DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
          <Button size="sm" variant="outline" flexShrink="0" onClick={() => setQrOpen(true)}>{t('customer.qr')}</Button>
        </Flex>
      </Card.Body>
      {qrOpen && <QrDialog keyView={keyView} onClose={() => setQrOpen(false)} />}
    </Card.Root>
  );
}

function CodeCards({ keyView, service }: { keyView: CustomerKey; service: ServiceCode }) {
  const { t } = useTexts();
  const usable = keyView.status === 'Active' && expiryTone(keyView.expiresAt) !== 'expired';
  return (
    <Stack gap="3" as="section" aria-labelledby={`codes-${keyView.id}`}>
      <Box>
        <Heading as="h2" size="lg" id={`codes-${keyView.id}`}>{t('customer.codesTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('customer.codesHelp')}</Text>
      </Box>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        {serviceCards[service].map((type) => <CodeCard key={type} type={type} keyView={keyView} usable={usable} />)}
      </SimpleGrid>
    </Stack>
  );
}

/** The session's keys are all of other services: the way to each one's page. */
function OtherServices({ keys }: { keys: CustomerKey[] }) {
  const { t } = useTexts();
  const services = [...new Set(keys.map((key) => key.service))];
  if (services.length === 0) return <Text color="fg.muted">{t('customer.noKeys')}</Text>;
  return (
    <Card.Root size="sm" data-testid="other-service">
      <Card.Body>
        <Stack gap="3">
          {services.map((other) => (
            <Stack key={other} gap="2">
              <Heading as="h2" size="md">{t('customer.wrongService', { service: serviceNames[other] })}</Heading>
              <Text color="fg.muted">{t('customer.wrongServiceBody')}</Text>
              <Button asChild colorPalette="blue" alignSelf="flex-start">
                <RouterLink to={servicePagePaths[other]}>{t('customer.goTo', { service: serviceNames[other] })}</RouterLink>
              </Button>
            </Stack>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/** Made when opened (document 3 §7 generate-qr); 'Failed to generate QR code' unless the server says why. */
function QrDialog({ keyView, onClose }: { keyView: CustomerKey; onClose: () => void }) {
  const { t } = useTexts();
  const generate = useCustomerQr();
  const { mutate } = generate;
  const retry = generate.isError ? retryLaterOf(generate.error) : null;
  useEffect(() => mutate(keyView.id), [keyView.id, mutate]);
  return (
    <Dialog open onClose={onClose} title={t('customer.qrTitle')}>
      <Stack gap="3" align="center">
        <Text fontFamily="mono" wordBreak="break-all">{keyView.key}</Text>
        {generate.isPending && <Center gap="3" role="status" minH="48"><Spinner size="sm" /><Text>{t('customer.qrGenerating')}</Text></Center>}
        {retry && <RetryAlert testId="qr-error" retry={retry} />}
        {generate.isError && !retry && <ErrorAlert testId="qr-error" title={errorText(generate.error, t('customer.qrFailed'))} />}
        {generate.data && (
          <Box bg="white" p="2" borderRadius="md" borderWidth="1px">
            <Image src={generate.data.data.qrCodeData} alt={t('customer.qrAlt', { key: keyView.key })} boxSize={{ base: '56', sm: '64' }} data-testid="qr-image" />
          </Box>
        )}
      </Stack>
    </Dialog>
  );
}

function RetryButton({ onRetry }: { onRetry: () => void }) {
  const { t } = useTexts();
  return <Button size="xs" variant="outline" onClick={onRetry}>{t('customer.tryAgain')}</Button>;
}

function Loading({ inline }: { inline?: boolean }) {
  const { t } = useTexts();
  return (
    <Center minH={inline ? '32' : '100dvh'} gap="3" role="status">
      <Spinner size="sm" />
      <Text>{t('customer.loading')}</Text>
    </Center>
  );
}
