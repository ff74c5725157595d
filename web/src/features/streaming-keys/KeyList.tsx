import { Badge, Box, Button, Card, Flex, Heading, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify } from '../../lib/toast';
import { copyText } from '../payment/clipboard';
import { EXPIRING_SOON_DAYS, serviceNames, type StreamingKeyView } from './api';
import { CustomerIdDialog, DeleteKeyDialog, ExtendDialog, QrDialog } from './KeyDialogs';
import { AccountMailbox } from './MailboxPassword';
import { useAccounts } from './queries';
import { groupKeys, keyInfo } from './report';

type Open = { dialog: 'extend' | 'customer' | 'qr' | 'delete'; key: StreamingKeyView } | null;

const statusColours = { Active: 'green', Expired: 'red', Used: 'gray' } as const;

export function KeyStatusBadge({ status }: { status: StreamingKeyView['status'] }) {
  const { t } = useTexts();
  return <Badge colorPalette={statusColours[status]}>{t(`streamingKeys.status.${status}`)}</Badge>;
}

/** Keys grouped by account e-mail, then by service (document 3 §2), each card with its actions. */
export function KeyList({ keys: loaded, error, expiringOnly, searching }: { keys: readonly StreamingKeyView[] | undefined; error: Error | null; expiringOnly: boolean; searching: boolean }) {
  const { t } = useTexts();
  const [open, setOpen] = useState<Open>(null);
  const accounts = useAccounts();
  const accountOf = (service: string, email: string) => accounts.data?.data.find((account) => account.service === service && account.email === email);
  const keys = loaded ?? [];
  const groups = groupKeys(keys);
  const close = () => setOpen(null);
  const empty = expiringOnly ? t('streamingKeys.noExpiring', { days: EXPIRING_SOON_DAYS }) : searching ? t('streamingKeys.noMatch') : t('streamingKeys.noKeys');

  return (
    <Stack gap="4" data-testid="key-groups">
      {!loaded && !error && <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('streamingKeys.loading')}</Text></Flex>}
      {error && <ErrorAlert title={t('streamingKeys.keysFetchFailed')} description={errorText(error, error.message)} />}
      {accounts.isError && <ErrorAlert title={t('streamingKeys.accountsFetchFailed')} description={errorText(accounts.error, accounts.error.message)} />}
      {loaded && keys.length === 0 && <Text color="fg.muted">{empty}</Text>}
      {groups.map((group) => (
        <Card.Root key={group.email} size="sm" data-account={group.email}>
          <Card.Header>
            <Flex gap="2" align="center" wrap="wrap">
              <Heading as="h3" size="sm" wordBreak="break-all">{group.email}</Heading>
              <Badge>{t('streamingKeys.keyCount', { count: group.services.reduce((sum, service) => sum + service.keys.length, 0) })}</Badge>
            </Flex>
          </Card.Header>
          <Card.Body>
            <Stack gap="4">
              {group.services.map(({ service, keys: serviceKeys }) => (
                <Box key={service} data-service={service}>
                  <Flex gap="2" justify="space-between" align="center" wrap="wrap" mb="2">
                    <Text fontWeight="semibold">{serviceNames[service]}</Text>
                    <AccountMailbox service={service} email={group.email} account={accountOf(service, group.email)} loaded={accounts.isSuccess} />
                  </Flex>
                  <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="3">
                    {serviceKeys.map((key) => (
                      <KeyCard key={key.id} keyView={key} onOpen={(dialog) => setOpen({ dialog, key })} />
                    ))}
                  </SimpleGrid>
                </Box>
              ))}
            </Stack>
          </Card.Body>
        </Card.Root>
      ))}
      {open?.dialog === 'extend' && <ExtendDialog keyView={open.key} onClose={close} />}
      {open?.dialog === 'customer' && <CustomerIdDialog keyView={open.key} onClose={close} />}
      {open?.dialog === 'qr' && <QrDialog keyView={open.key} onClose={close} />}
      {open?.dialog === 'delete' && <DeleteKeyDialog keyView={open.key} onClose={close} />}
    </Stack>
  );
}

function KeyCard({ keyView, onOpen }: { keyView: StreamingKeyView; onOpen: (dialog: NonNullable<Open>['dialog']) => void }) {
  const { t, format } = useTexts();
  const copyInfo = async () => {
    if (await copyText(keyInfo(keyView))) notify({ title: t('streamingKeys.copied'), description: t('streamingKeys.copiedBody'), type: 'success' });
    else notify({ title: t('streamingKeys.error'), description: t('streamingKeys.copyFailed'), type: 'error' });
  };
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" bg="bg" data-key={keyView.key}>
      <Stack gap="2">
        <Flex gap="2" justify="space-between" align="flex-start" wrap="wrap">
          <Text fontFamily="mono" fontWeight="semibold" wordBreak="break-all">{keyView.key}</Text>
          <KeyStatusBadge status={keyView.status} />
        </Flex>
        <Flex gap="2" wrap="wrap" fontSize="sm">
          <Badge variant="outline">{t('streamingKeys.profile', { number: keyView.profileNumber })}</Badge>
          <Badge variant="subtle" colorPalette={keyView.held ? 'blue' : 'gray'}>{keyView.held ? t('streamingKeys.held') : t('streamingKeys.free')}</Badge>
        </Flex>
        <Text fontSize="sm" data-testid="key-expiry">{t('streamingKeys.expires', { date: format.dateTime(keyView.expiresAt) })}</Text>
        {keyView.customerId && <Text fontSize="sm" color="fg.muted">{t('streamingKeys.customer', { id: keyView.customerId })}</Text>}
        <Flex gap="1" wrap="wrap">
          <Button size="xs" variant="outline" onClick={() => void copyInfo()} aria-label={t('streamingKeys.copyInfoOf', { key: keyView.key })}>{t('streamingKeys.copyInfo')}</Button>
          <Button size="xs" variant="outline" onClick={() => onOpen('customer')} aria-label={t('streamingKeys.editCustomerOf', { key: keyView.key })}>{t('streamingKeys.editCustomer')}</Button>
          <Button size="xs" variant="outline" onClick={() => onOpen('extend')} aria-label={t('streamingKeys.extendOf', { key: keyView.key })}>{t('streamingKeys.extend')}</Button>
          <Button size="xs" variant="outline" onClick={() => onOpen('qr')} aria-label={t('streamingKeys.qrOf', { key: keyView.key })}>{t('streamingKeys.qr')}</Button>
          <Button size="xs" variant="outline" colorPalette="red" onClick={() => onOpen('delete')} aria-label={t('streamingKeys.deleteOf', { key: keyView.key })}>{t('streamingKeys.delete')}</Button>
        </Flex>
      </Stack>
    </Box>
  );
}
