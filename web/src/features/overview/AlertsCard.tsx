import { Badge, Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useTexts } from '../../i18n';
import { useFiringAlerts } from './queries';

/** The alerts firing in every service (docs/alerts.md): what needs the operator now, worst first. */
export function AlertsCard() {
  const { t, format } = useTexts();
  const { data, isError } = useFiringAlerts();
  const alerts = data?.data ?? [];
  const unreachable = data?.unreachable ?? [];
  return (
    <Card.Root size="sm" as="section" aria-labelledby="alerts-title" data-testid="alerts-card">
      <Card.Header><Heading as="h2" size="md" id="alerts-title">{t('alerts.title')}</Heading></Card.Header>
      <Card.Body>
        <Stack gap="3">
          {isError && <Text color="fg.muted">{t('alerts.unavailable')}</Text>}
          {data && alerts.length === 0 && <Text color="fg.muted">{t('alerts.none')}</Text>}
          {alerts.map((alert) => (
            <Flex key={alert.id} gap="3" align="start" data-alert={`${alert.service}/${alert.rule}/${alert.key}`}>
              <Badge colorPalette={alert.severity === 'critical' ? 'red' : 'orange'} flexShrink="0">{t(`alerts.${alert.severity}`)}</Badge>
              <Stack gap="0" minW="0">
                <Text fontWeight="semibold">{alert.title}</Text>
                <Text fontSize="sm">{alert.message}</Text>
                <Text fontSize="xs" color="fg.muted">{t('alerts.since', { service: alert.service, time: format.dateTime(alert.firedAt ?? alert.pendingSince) })}</Text>
              </Stack>
            </Flex>
          ))}
          {unreachable.length > 0 && <Text fontSize="sm" color="orange.600">{t('alerts.unreachable', { services: unreachable.join(', ') })}</Text>}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
