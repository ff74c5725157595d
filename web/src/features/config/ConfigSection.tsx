import { Button, Flex, Spinner, Text } from '@chakra-ui/react';
import { Link } from 'react-router';
import { ConfigStatusGroups, groupItems } from '../../components/ConfigStatusGroups';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { useConfigStatus } from './queries';

/** Configuration status by category, marking which integrations run against a simulator; the settings hub (/configuration) one click away. */
export default function ConfigSection() {
  const { t } = useTexts();
  const { data, isPending, isError, error } = useConfigStatus();
  const groups = groupItems(data?.data ?? [], (item) => item.category).map(([category, items]) => ({ key: category, title: category, items }));
  return (
    <>
      <PageHeader
        title={t('config.title')}
        subtitle={t('config.subtitle')}
        actions={
          <Button asChild variant="outline" size="sm">
            <Link to="/configuration">{t('config.openHub')}</Link>
          </Button>
        }
      />
      {isPending && (
        <Flex gap="3" align="center" role="status"><Spinner size="sm" /><Text>{t('config.loading')}</Text></Flex>
      )}
      {isError && <ErrorAlert testId="config-error" title={t('config.error')} description={errorText(error, '') || undefined} />}
      {data && groups.length === 0 && <Text color="fg.muted">{t('config.empty')}</Text>}
      <ConfigStatusGroups groups={groups} testId="config-groups" />
    </>
  );
}
