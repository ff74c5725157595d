import { Flex, Input, NativeSelect, Text } from '@chakra-ui/react';
import { FormField } from '../../components/Form';
import { useTexts, type MessageKey } from '../../i18n';
import { notifyError } from '../../lib/toast';
import { MONTH_CHOICES, serviceCodeList, serviceNames, type ServiceCode } from './api';
import { chooseDate, chooseMonths, earliestExpiryDate, type ExpiryChoice } from './forms';

/** Document 3 §8: a failed call's toast is titled 'Error' (destructive), the server's message else the default. */
export function useFailureToast() {
  const { t } = useTexts();
  return (fallback: MessageKey) => (error: unknown) => notifyError(t('streamingKeys.error'), error, t(fallback));
}

export function ServiceSelect({ value, onChange, label, error, required }: { value: ServiceCode | ''; onChange: (service: ServiceCode | '') => void; label?: string; error?: string | null; required?: boolean }) {
  const { t } = useTexts();
  return (
    <FormField label={label ?? t('streamingKeys.service')} error={error} required={required}>
      <NativeSelect.Root>
        <NativeSelect.Field name="service" value={value} onChange={(event) => onChange(event.target.value as ServiceCode | '')}>
          <option value="">{t('streamingKeys.servicePlaceholder')}</option>
          {serviceCodeList.map((code) => (
            <option key={code} value={code}>{`${serviceNames[code]} (${code})`}</option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  );
}

export function MonthsSelect({ value, onChange, label, name = 'months' }: { value: string; onChange: (months: string) => void; label: string; name?: string }) {
  const { t } = useTexts();
  return (
    <FormField label={label}>
      <NativeSelect.Root>
        <NativeSelect.Field name={name} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{t('streamingKeys.monthsPlaceholder')}</option>
          {MONTH_CHOICES.map((months) => (
            <option key={months} value={months}>{t('streamingKeys.monthCount', { count: months })}</option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  );
}

/**
 * Months (1–12) or a custom date not before today; choosing one clears the other (document 3 §4).
 * `minDate` raises the earliest date (an extension must end later than the key does now).
 */
export function ExpiryFields({ value, onChange, minDate }: { value: ExpiryChoice; onChange: (choice: ExpiryChoice) => void; minDate?: string }) {
  const { t } = useTexts();
  const today = earliestExpiryDate();
  return (
    <Flex gap="3" align={{ base: 'stretch', sm: 'flex-end' }} direction={{ base: 'column', sm: 'row' }}>
      <MonthsSelect label={t('streamingKeys.months')} value={value.months} onChange={(months) => onChange(chooseMonths(months))} />
      <Text color="fg.muted" pb={{ sm: '2' }} textAlign="center">{t('streamingKeys.or')}</Text>
      <FormField label={t('streamingKeys.customDate')}>
        <Input type="date" name="expiresAt" value={value.date} min={minDate && minDate > today ? minDate : today} onChange={(event) => onChange(chooseDate(event.target.value))} />
      </FormField>
    </Flex>
  );
}
