import { Alert, Avatar, Box, Button, Card, DataList, Flex, Heading, Image, Link, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useParams } from 'react-router';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { usePageTitle } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { statusOf } from '../../lib/api';
import { notify } from '../../lib/toast';
import type { BankLink, InvoiceView } from './api';
import { copyText } from './clipboard';
import { isInAppBrowser } from './in-app-browser';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';
import { useInvoiceView } from './queries';

/**
 * /payment/:invoiceId, public (document 3 §2): no sign-in and no admin shell. A customer opens it
 * from the chat on a phone, pays in a bank app, and sees it turn paid here.
 */
export default function PaymentPage() {
  const { t } = useTexts();
  usePageTitle(t('payment.pageTitle'));
  const { invoiceId = '' } = useParams();
  const invoice = useInvoiceView(invoiceId);
  const inApp = isInAppBrowser(navigator.userAgent);

  return (
    <Box as="main" minH="100vh" bg="bg.subtle" px="4" py={{ base: '4', md: '10' }}>
      <Stack maxW="md" mx="auto" gap="4">
        {inApp && <InAppBrowserWarning />}
        {invoice.isPending && (
          <Flex gap="3" align="center" justify="center" role="status" py="10">
            <Spinner size="sm" />
            <Text>{t('payment.loading')}</Text>
          </Flex>
        )}
        {invoice.isError && !invoice.data && <LoadFailed error={invoice.error} onRetry={() => void invoice.refetch()} />}
        {invoice.data && <Invoice invoice={invoice.data} />}
        <Flex justify="center" pt="2">
          <LanguageSwitch />
        </Flex>
      </Stack>
    </Box>
  );
}

/** In Facebook, Messenger or Instagram the bank apps' links often fail: this comes first, with the link to copy. */
function InAppBrowserWarning() {
  const { t } = useTexts();
  const link = window.location.href;
  const copy = async () => {
    if (await copyText(link)) notify({ title: t('payment.linkCopied'), description: t('payment.linkCopiedBody'), type: 'success' });
    else notify({ title: t('payment.copyFailed'), type: 'error' });
  };

  return (
    <Alert.Root status="warning" data-testid="in-app-warning" alignItems="flex-start">
      <Alert.Indicator />
      <Alert.Content gap="2">
        <Alert.Title>{t('payment.inAppTitle')}</Alert.Title>
        <Alert.Description>{t('payment.inAppBody')}</Alert.Description>
        {/* Selectable by hand too, should both ways of copying fail. */}
        <Text fontFamily="mono" fontSize="xs" wordBreak="break-all" bg="bg" borderRadius="sm" px="2" py="1" data-testid="page-link">{link}</Text>
        <Button size="sm" colorPalette="orange" alignSelf="flex-start" onClick={copy}>{t('payment.copyLink')}</Button>
      </Alert.Content>
    </Alert.Root>
  );
}

/** An unknown (or malformed, or deleted) invoice is 'Invoice Not Found'; anything else can be retried. */
function LoadFailed({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTexts();
  const status = statusOf(error);
  if (status === 404 || status === 400) {
    return (
      <Card.Root data-testid="invoice-not-found">
        <Card.Body>
          <Stack gap="2" textAlign="center" py="6">
            <Heading as="h1" size="lg">{t('payment.notFoundTitle')}</Heading>
            <Text color="fg.muted">{t('payment.notFoundBody')}</Text>
          </Stack>
        </Card.Body>
      </Card.Root>
    );
  }
  return (
    <Alert.Root status="error" role="alert" data-testid="invoice-load-error">
      <Alert.Indicator />
      <Alert.Content gap="2">
        <Alert.Title>{t('payment.loadError')}</Alert.Title>
        <Button size="sm" variant="outline" alignSelf="flex-start" onClick={onRetry}>{t('payment.tryAgain')}</Button>
      </Alert.Content>
    </Alert.Root>
  );
}

/** Document 3 §2, in order: what and how much, the QR and the ids, then paid, cancelled or the bank apps. */
function Invoice({ invoice }: { invoice: InvoiceView }) {
  const { t, format } = useTexts();
  const pending = invoice.status === 'pending';
  return (
    <>
      <Card.Root data-testid="invoice-summary">
        <Card.Body>
          <Stack gap="3">
            <Flex gap="3" justify="space-between" align="flex-start">
              <Heading as="h1" size="lg" wordBreak="break-word">{invoice.description}</Heading>
              <InvoiceStatusBadge status={invoice.status} size="lg" flexShrink="0" data-testid="invoice-status" />
            </Flex>
            {invoice.customerName && (
              <Text color="fg.muted">
                {t('payment.customer')}: <Text as="span" color="fg" fontWeight="medium" data-testid="customer-name">{invoice.customerName}</Text>
              </Text>
            )}
            <Box>
              <Text fontSize="sm" color="fg.muted">{t('payment.amount')}</Text>
              <Text fontSize="3xl" fontWeight="bold" lineHeight="short" data-testid="invoice-amount">{format.tugrik(invoice.amount)}</Text>
            </Box>
          </Stack>
        </Card.Body>
      </Card.Root>

      <Card.Root data-testid="invoice-qr">
        <Card.Body>
          <Stack gap="4" align="center">
            {invoice.qrImage ? (
              // A paid or cancelled invoice keeps its QR for the record, faded and blurred so nobody pays it again.
              <Image
                src={invoice.qrImage}
                alt={t('payment.qrAlt', { invoiceId: invoice.invoiceId })}
                boxSize="64"
                maxW="100%"
                bg="white"
                p="2"
                borderRadius="md"
                borderWidth="1px"
                opacity={pending ? 1 : 0.3}
                filter={pending ? undefined : 'grayscale(1) blur(3px)'}
              />
            ) : (
              <Text color="fg.muted">{t('payment.noQr')}</Text>
            )}
            {pending && invoice.qrImage && <Text fontSize="sm" color="fg.muted" textAlign="center">{t('payment.scanQr')}</Text>}
            <DataList.Root orientation="horizontal" size="sm" width="full">
              <Detail label={t('payment.invoiceId')} value={invoice.invoiceId} testId="invoice-id" mono />
              {invoice.qpayInvoiceId && <Detail label={t('payment.qpayInvoiceId')} value={invoice.qpayInvoiceId} testId="qpay-invoice-id" mono />}
              <Detail label={t('payment.createdAt')} value={format.dateTime(invoice.createdAt)} testId="created-at" />
            </DataList.Root>
          </Stack>
        </Card.Body>
      </Card.Root>

      {invoice.status === 'paid' && (
        <Alert.Root status="success" data-testid="paid-confirmation">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('payment.paidTitle')}</Alert.Title>
            {invoice.paidAt && <Alert.Description data-testid="paid-at">{t('payment.paidAt', { time: format.dateTime(invoice.paidAt) })}</Alert.Description>}
            <Alert.Description>{t('payment.paidBody')}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {invoice.status === 'cancelled' && (
        <Alert.Root status="neutral" data-testid="cancelled-notice">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('payment.cancelledTitle')}</Alert.Title>
            <Alert.Description>{t('payment.cancelledBody')}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {pending && <BankLinks links={invoice.paymentUrls} />}
    </>
  );
}

function Detail({ label, value, testId, mono }: { label: string; value: string; testId: string; mono?: boolean }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel minW="28">{label}</DataList.ItemLabel>
      <DataList.ItemValue fontFamily={mono ? 'mono' : undefined} wordBreak="break-all" data-testid={testId}>{value}</DataList.ItemValue>
    </DataList.Item>
  );
}

/** While pending: each bank or wallet app QPay listed, opening the app with this invoice. */
function BankLinks({ links }: { links: BankLink[] }) {
  const { t } = useTexts();
  return (
    <Card.Root data-testid="bank-links">
      <Card.Header>
        <Heading as="h2" size="md">{t('payment.banksTitle')}</Heading>
        <Flex gap="2" align="center" role="status" color="fg.muted" fontSize="sm">
          <Spinner size="xs" />
          <Text>{t('payment.waiting')}</Text>
        </Flex>
      </Card.Header>
      <Card.Body>
        <Text fontSize="sm" color="fg.muted" mb="3">{t('payment.banksHelp')}</Text>
        <SimpleGrid columns={{ base: 2, sm: 3 }} gap="2" as="ul" listStyleType="none">
          {links.map((bank) => (
            <Box as="li" key={`${bank.name}:${bank.link}`}>
              <Link
                href={bank.link}
                aria-label={t('payment.payWith', { bank: bank.name })}
                data-bank={bank.name}
                display="flex"
                flexDirection="column"
                alignItems="center"
                gap="1"
                h="full"
                p="3"
                borderWidth="1px"
                borderRadius="md"
                bg="bg"
                textAlign="center"
                textDecoration="none"
                _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
              >
                <Avatar.Root size="md" shape="rounded" bg="bg.muted">
                  <Avatar.Fallback name={bank.name} />
                  <Avatar.Image src={bank.logo} alt="" />
                </Avatar.Root>
                <Text fontSize="sm" fontWeight="semibold" lineHeight="short">{bank.name}</Text>
                {bank.description && <Text fontSize="xs" color="fg.muted" lineHeight="short">{bank.description}</Text>}
              </Link>
            </Box>
          ))}
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}
