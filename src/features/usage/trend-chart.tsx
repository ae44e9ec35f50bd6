import { useQuery } from '@tanstack/react-query';
import { Area, AreaChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { usageDaysQueryOptions, type DayRange } from '../../api/usage';
import { ChartFigure, ChartState, FiguresTable } from './chart-figure';
import { describeRange } from './usage-range';
import { formatRate } from './usage-rows';
import { describeTrend, trendPoints, type TrendPoint } from './usage-series';

const TITLE = 'Calls and connected calls per day';
/* Indigo and emerald, told apart by lightness too; the connected area is drawn over the calls. */
const SERIES = [
  { key: 'calls', name: 'Calls', stroke: '#4f46e5', fill: '#c7d2fe' },
  { key: 'connected', name: 'Connected', stroke: '#047857', fill: '#6ee7b7' },
] as const;

function TrendTable({ points, range }: { points: TrendPoint[]; range: DayRange }) {
  return (
    <FiguresTable
      caption={`${TITLE}, ${describeRange(range)}`}
      headers={['Day', 'Calls', 'Connected', 'Connect rate', 'Voicemails', 'Talk time (min)']}
      rows={points.map((p) => ({
        key: p.date,
        cells: [
          p.day,
          p.calls.toLocaleString(),
          p.connected.toLocaleString(),
          formatRate(p.calls ? p.connected / p.calls : null),
          p.voicemail.toLocaleString(),
          p.talktime_minutes.toLocaleString(),
        ],
      }))}
    />
  );
}

/** The trend of calls and connected calls over the days shown: the team's, or one member's. */
export function TrendChart({ range, memberId }: { range: DayRange; memberId: string | null }) {
  const query = useQuery(usageDaysQueryOptions(range, memberId));
  if (!query.isSuccess) return <ChartState title={TITLE} query={query} />;
  const points = trendPoints(query.data);
  const summary = describeTrend(points);
  return (
    <ChartFigure title={TITLE} summary={summary} table={<TrendTable points={points} range={range} />}>
      <AreaChart
        data={points}
        responsive
        style={{ width: '100%', height: 260 }}
        margin={{ top: 4, right: 12, bottom: 20, left: 4 }}
        role="img"
        aria-label={`${TITLE}. ${summary}`}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e4e4e7" />
        <XAxis
          dataKey="tick"
          tick={{ fontSize: 12 }}
          minTickGap={12}
          label={{ value: 'Day (UTC)', position: 'insideBottom', offset: -14, fontSize: 12 }}
        />
        <YAxis
          allowDecimals={false}
          width={44}
          tick={{ fontSize: 12 }}
          label={{ value: 'Calls', angle: -90, position: 'insideLeft', offset: 8, fontSize: 12 }}
        />
        <Tooltip labelFormatter={(_, payload) => (payload?.[0]?.payload as TrendPoint | undefined)?.day ?? ''} />
        <Legend verticalAlign="top" height={28} iconType="square" wrapperStyle={{ fontSize: 12 }} />
        {SERIES.map((s) => (
          <Area
            key={s.key}
            type="linear"
            dataKey={s.key}
            name={s.name}
            stroke={s.stroke}
            strokeWidth={2}
            fill={s.fill}
            fillOpacity={0.6}
            dot={points.length <= 31}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    </ChartFigure>
  );
}
