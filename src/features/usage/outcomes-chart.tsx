import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, LabelList, Tooltip, XAxis, YAxis } from 'recharts';
import { usageDispositionsQueryOptions, type DayRange } from '../../api/usage';
import { ChartFigure, ChartState, FiguresTable } from './chart-figure';
import { describeRange } from './usage-range';
import { describeOutcomes, formatShare, outcomeRows, type OutcomeRow } from './usage-series';

const TITLE = 'Outcomes by disposition';
const BAR_HEIGHT = 30;

function OutcomesTable({ rows, range }: { rows: OutcomeRow[]; range: DayRange }) {
  return (
    <FiguresTable
      caption={`${TITLE}, ${describeRange(range)}`}
      headers={['Outcome', 'Calls', 'Share']}
      rows={rows.map((r) => ({ key: r.label, cells: [r.label, r.calls.toLocaleString(), formatShare(r.share)] }))}
    />
  );
}

/** Calls per disposition label over the days shown, most first: the team's, or one member's. */
export function OutcomesChart({ range, memberId }: { range: DayRange; memberId: string | null }) {
  const query = useQuery(usageDispositionsQueryOptions(range, memberId));
  if (!query.isSuccess) return <ChartState title={TITLE} query={query} />;
  const rows = outcomeRows(query.data);
  if (!rows.length) return <p className="p-4 text-sm text-zinc-600">No outcomes in these days.</p>;
  const summary = describeOutcomes(rows);
  return (
    <ChartFigure title={TITLE} summary={summary} table={<OutcomesTable rows={rows} range={range} />}>
      <BarChart
        data={rows}
        layout="vertical"
        responsive
        style={{ width: '100%', height: 48 + rows.length * BAR_HEIGHT }}
        margin={{ top: 4, right: 36, bottom: 20, left: 4 }}
        role="img"
        aria-label={`${TITLE}. ${summary}`}
      >
        <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e4e4e7" />
        <XAxis
          type="number"
          allowDecimals={false}
          tick={{ fontSize: 12 }}
          label={{ value: 'Calls', position: 'insideBottom', offset: -14, fontSize: 12 }}
        />
        <YAxis type="category" dataKey="label" width={116} tick={{ fontSize: 12 }} interval={0} />
        <Tooltip
          formatter={(value, _name, item) => [
            `${Number(value).toLocaleString()} (${formatShare((item.payload as OutcomeRow).share)})`,
            'Calls',
          ]}
        />
        <Bar dataKey="calls" name="Calls" fill="#6366f1" barSize={18} isAnimationActive={false}>
          <LabelList dataKey="calls" position="right" fontSize={12} fill="#3f3f46" />
        </Bar>
      </BarChart>
    </ChartFigure>
  );
}
