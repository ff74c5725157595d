import { Badge, Button, Flex, Input, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import { serviceNames, type AccountView, type ServiceCode } from './api';
import { useFailureToast } from './fields';
import { useSetMailboxPassword } from './mutations';

/**
 * An account's mailbox password (ADR 15), on its group of the key list: whether one is stored
 * (masked, never the whole), and the dialog that sets it. Customers' code fetches read the
 * account's mailbox with it.
 */
export function AccountMailbox({ service, email, account, loaded }: { service: ServiceCode; email: string; /** undefined: not listed: nothing stored. */ account: AccountView | undefined; /** false while the accounts load. */ loaded: boolean }) {
  const { t } = useTexts();
  const [open, setOpen] = useState(false);
  const set = account?.mailboxPasswordSet === true;
  const names = { email, service: serviceNames[service] };
  return (
    <Flex gap="2" align="center" wrap="wrap" fontSize="sm" data-testid="mailbox-password" aria-label={t('streamingKeys.mailboxOf', names)} role="group">
      <Text color="fg.muted">{t('streamingKeys.mailbox')}:</Text>
      {loaded && (
        <Badge colorPalette={set && !account.mailboxPasswordUnreadable ? 'green' : 'orange'} data-testid="mailbox-status" whiteSpace="normal">
          {!set
            ? t('streamingKeys.mailboxNotSet')
            : account.mailboxPasswordUnreadable
              ? t('common.secretUnreadable', { reason: account.mailboxPasswordUnreadable })
              : t('streamingKeys.mailboxSet', { masked: account.mailboxPasswordMasked })}
        </Badge>
      )}
      <Button size="xs" variant="outline" onClick={() => setOpen(true)} aria-label={t('streamingKeys.mailboxActionOf', names)}>
        {set ? t('streamingKeys.mailboxChange') : t('streamingKeys.mailboxAction')}
      </Button>
      {open && <MailboxDialog service={service} email={email} account={account} onClose={() => setOpen(false)} />}
    </Flex>
  );
}

function MailboxDialog({ service, email, account, onClose }: { service: ServiceCode; email: string; account: AccountView | undefined; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const save = useSetMailboxPassword({
    onSuccess: () => {
      notify({ title: t('streamingKeys.mailboxSaved'), description: t('streamingKeys.mailboxSavedBody', { email }), type: 'success' });
      onClose();
    },
    onError: failed('streamingKeys.mailboxFailed'),
  });
  // A password is taken as typed (spaces may belong to it); only an empty one is refused, with our message (noValidate: not
  // the browser's bubble).
  const submit = () => {
    setMissing(password === '');
    if (password !== '' && !save.isPending) save.mutate({ service, email, mailboxPassword: password });
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('streamingKeys.mailboxTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="mailbox-password" loading={save.isPending} loadingText={t('common.saving')}>{t('common.save')}</Button>
        </>
      }
    >
      <Form id="mailbox-password" onSubmit={submit} noValidate>
        <Text>{t('streamingKeys.mailboxBody', { email })}</Text>
        {account?.mailboxPasswordSet && (
          <Text fontSize="sm" color="fg.muted">
            {account.mailboxPasswordUnreadable ? t('common.secretUnreadable', { reason: account.mailboxPasswordUnreadable }) : t('streamingKeys.mailboxCurrent', { masked: account.mailboxPasswordMasked })}
          </Text>
        )}
        <FormField label={t('streamingKeys.mailboxPassword')} error={missing ? t('streamingKeys.mailboxRequired') : null} required>
          <Input name="mailboxPassword" type="password" value={password} onChange={(event) => setPassword(event.target.value)} maxLength={200} autoComplete="new-password" />
        </FormField>
      </Form>
    </Dialog>
  );
}
