import { Text } from '@chakra-ui/react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTexts } from '../../i18n';
import { useTimeline } from './queries';

/** Requests per hour from the request log (GET /api/analytics/timeline). */
export default function TimelineChart() {
  const { t, format } = useTexts();
  const { data, isError } = useTimeline();
  const points = data?.data ?? [];
  if (isError) return <Text color="fg.muted">{t('analytics.unavailable')}</Text>;
  if (points.length === 0) return <Text color="fg.muted">{t('analytics.noTimeline')}</Text>;
  const hourLabel = (hour: string) => labelOfHour(hour, format.hour);
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="hour" fontSize={12} tickFormatter={hourLabel} />
        <YAxis allowDecimals={false} fontSize={12} />
        <Tooltip labelFormatter={(hour) => hourLabel(String(hour))} />
        <Bar dataKey="requests" name={t('analytics.requests')} fill="#3182ce" radius={[4, 4, 0, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Hours may come as ISO timestamps or as labels; timestamps are shown as the local hour in the locale's style. */
function labelOfHour(hour: string, format: (time: number) => string): string {
  const time = Date.parse(hour);
  if (Number.isNaN(time) || !hour.includes('T')) return hour;
  return format(time);
}
