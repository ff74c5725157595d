import { Button, Input, NativeSelect, RadioGroup, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import { serviceMaxProfiles, type ServiceCode } from './api';
import { ExpiryFields, ServiceSelect, useFailureToast } from './fields';
import { newKeysRequest, noExpiry, type NewKeyForm } from './forms';
import { useCreateKeys } from './mutations';
import { useEmailsWithSlots } from './queries';

type AccountChoice = 'existing' | 'new';

/**
 * Document 3 §2/§5: keys for an account e-mail — the service, an existing e-mail with free slots or
 * a new one, the expiry by months or date, how many profiles (1..the service's maximum, or the
 * account's free ones), and the account's shared password when it is given.
 */
export function CreateKeyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const [form, setForm] = useState<NewKeyForm>({ service: '', email: '', expiry: noExpiry, profiles: '1', password: '' });
  const [account, setAccount] = useState<AccountChoice>('new');
  const [problem, setProblem] = useState<string | null>(null);
  const emails = useEmailsWithSlots(form.service);
  const withFreeSlots = (emails.data?.data ?? []).filter((entry) => entry.availableSlots > 0);
  const chosenExisting = withFreeSlots.find((entry) => entry.email === form.email);
  const maxProfiles = form.service ? (account === 'existing' && chosenExisting ? chosenExisting.availableSlots : serviceMaxProfiles[form.service]) : 1;
  const update = (change: Partial<NewKeyForm>) => setForm((current) => ({ ...current, ...change }));

  const create = useCreateKeys({
    onSuccess: (reply, request) => {
      notify({ title: t('streamingKeys.created'), description: t('streamingKeys.createdBody', { count: reply.data.keys.length, email: request.email }), type: 'success' });
      onClose();
    },
    onError: failed('streamingKeys.createFailed'),
  });
  const submit = () => {
    const request = newKeysRequest(form);
    if ('problem' in request) return setProblem(t(request.problem));
    setProblem(null);
    create.mutate(request);
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={t('streamingKeys.createTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="create-keys" loading={create.isPending} loadingText={t('streamingKeys.creating')}>{t('streamingKeys.create')}</Button>
        </>
      }
    >
      <Form id="create-keys" onSubmit={submit} gap="4">
        <ServiceSelect value={form.service} onChange={(service: ServiceCode | '') => update({ service, email: account === 'existing' ? '' : form.email, profiles: '1' })} />
        <FormField label={t('streamingKeys.account')}>
          <Stack gap="2" w="full">
            <RadioGroup.Root
              value={account}
              onValueChange={(event) => {
                setAccount(event.value as AccountChoice);
                update({ email: '', profiles: '1' });
              }}
              size="sm"
            >
              <HStack gap="4" wrap="wrap">
                {(['new', 'existing'] as const).map((value) => (
                  <RadioGroup.Item key={value} value={value}>
                    <RadioGroup.ItemHiddenInput />
                    <RadioGroup.ItemIndicator />
                    <RadioGroup.ItemText>{t(value === 'new' ? 'streamingKeys.newEmail' : 'streamingKeys.existingEmail')}</RadioGroup.ItemText>
                  </RadioGroup.Item>
                ))}
              </HStack>
            </RadioGroup.Root>
            {account === 'new' ? (
              <Input name="email" type="email" value={form.email} onChange={(event) => update({ email: event.target.value })} maxLength={120} autoComplete="off" placeholder="account@example.com" />
            ) : (
              <>
                <NativeSelect.Root disabled={!form.service}>
                  <NativeSelect.Field name="existingEmail" value={form.email} onChange={(event) => update({ email: event.target.value, profiles: '1' })}>
                    <option value="">{t('streamingKeys.emailPlaceholder')}</option>
                    {withFreeSlots.map((entry) => (
                      <option key={entry.email} value={entry.email}>{t('streamingKeys.freeSlots', { email: entry.email, count: entry.availableSlots })}</option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                {form.service && emails.isSuccess && withFreeSlots.length === 0 && <Text fontSize="sm" color="fg.muted">{t('streamingKeys.noFreeEmails')}</Text>}
              </>
            )}
          </Stack>
        </FormField>
        <FormField label={t('streamingKeys.expiry')}>
          <ExpiryFields value={form.expiry} onChange={(expiry) => update({ expiry })} />
        </FormField>
        <FormField label={t('streamingKeys.profiles')} helper={t('streamingKeys.profilesHelper', { max: maxProfiles })}>
          <NativeSelect.Root>
            <NativeSelect.Field name="profiles" value={form.profiles} onChange={(event) => update({ profiles: event.target.value })}>
              {Array.from({ length: maxProfiles }, (_, index) => index + 1).map((count) => (
                <option key={count} value={count}>{count}</option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        <FormField label={t('streamingKeys.password')} helper={t('streamingKeys.passwordHelper')}>
          <Input name="password" type="password" value={form.password} onChange={(event) => update({ password: event.target.value })} maxLength={200} autoComplete="new-password" />
        </FormField>
        {problem && <Text color="fg.error" role="alert">{problem}</Text>}
      </Form>
    </Dialog>
  );
}
