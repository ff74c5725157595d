import { Alert, Button, Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { CopyButton } from '../../components/CopyButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import type { CustomerKey, ParseEmailType } from './api';
import { cardViewOf, retryLaterOf, type CardView } from './fetch-result';
import { useParseEmail } from './mutations';
import { RetryAlert } from './RetryAlert';
import { cardYields } from './service';

/**
 * One code-fetch card (document 3 §2): the fetch button reads the account's mailbox through the
 * server, which refuses password-reset and security mails and any key that is not valid (403, its
 * message shown here), and says when to try again after a click too soon or while the mailbox is paused.
 */
export function CodeCard({ type, keyView, usable }: { type: ParseEmailType; keyView: CustomerKey; /** false: expired or deactivated. */ usable: boolean }) {
  const { t } = useTexts();
  const yields = cardYields[type];
  const fetch = useParseEmail();
  const view = fetch.data ? cardViewOf(yields, fetch.data) : null;
  const retry = fetch.isError ? retryLaterOf(fetch.error) : null;

  return (
    <Card.Root size="sm" data-card={type} h="full">
      <Card.Header>
        <Heading as="h3" size="md">{t(`customer.card.${type}`)}</Heading>
        <Text fontSize="sm" color="fg.muted">{t(`customer.card.${type}.help`)}</Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="3">
          {!usable && !fetch.data && !fetch.isError && (
            <Text fontSize="sm" color="fg.error" data-testid="key-not-usable">{t(keyView.status === 'Used' ? 'customer.keyInactive' : 'customer.keyExpired')}</Text>
          )}
          <Button
            colorPalette="blue"
            variant={view ? 'outline' : 'solid'}
            loading={fetch.isPending}
            loadingText={t('customer.fetching')}
            onClick={() => fetch.mutate({ type, keyId: keyView.id })}
          >
            {t(`customer.fetch.${yields}`)}
          </Button>
          {retry && <RetryAlert testId="fetch-error" retry={retry} />}
          {fetch.isError && !retry && <ErrorAlert testId="fetch-error" title={errorText(fetch.error, t('customer.parseFailed'))} />}
          {view && <FetchedView view={view} />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function FetchedView({ view }: { view: CardView }) {
  const { t } = useTexts();
  switch (view.kind) {
    case 'code':
      return (
        <Flex gap="3" align="center" justify="space-between" wrap="wrap" borderWidth="1px" borderRadius="md" px="4" py="3" bg="bg.subtle">
          <Text fontFamily="mono" fontSize="4xl" fontWeight="bold" letterSpacing="widest" lineHeight="1" data-testid="fetched-code">{view.code}</Text>
          <CopyButton value={view.code} what={t('customer.theCode')} size="sm" />
        </Flex>
      );
    case 'links':
      return (
        <Stack gap="2" data-testid="fetched-links">
          {view.links.map((link) => (
            <LinkButton key={link.url} url={link.url} caption={link.caption ?? t('customer.openLink')} />
          ))}
        </Stack>
      );
    case 'tv':
      return (
        <Stack gap="2" data-testid="fetched-tv">
          {view.approve.map((url) => <LinkButton key={url} url={url} caption={t('customer.approve')} palette="green" />)}
          {view.deny.map((url) => <LinkButton key={url} url={url} caption={t('customer.deny')} palette="red" variant="outline" />)}
        </Stack>
      );
    case 'blocked':
      // The refusal in Mongolian first, the English reason as its helper text (ADR 15).
      return (
        <Alert.Root status="warning" data-testid="fetch-refused">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{view.message}</Alert.Title>
            <Alert.Description fontSize="sm" color="fg.muted">{view.reason}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      );
    case 'empty':
      return (
        <Stack gap="1" data-testid="fetch-empty">
          <Text color="fg.muted">{t(`customer.${view.text}`)}</Text>
          {view.detail && <Text fontSize="sm" color="fg.muted">{view.detail}</Text>}
        </Stack>
      );
  }
}

function LinkButton({ url, caption, palette = 'blue', variant = 'solid' }: { url: string; caption: string; palette?: string; variant?: 'solid' | 'outline' }) {
  return (
    <Button asChild colorPalette={palette} variant={variant} whiteSpace="normal" h="auto" minH="10" py="2">
      <a href={url} target="_blank" rel="noopener noreferrer">{caption}</a>
    </Button>
  );
}
