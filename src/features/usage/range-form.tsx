import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { DayRange } from '../../api/usage';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { PRESETS, rangeFormSchema, sameRange, type RangeFormValues } from './usage-range';

type Props = {
  range: DayRange;
  /** The day presets count back from; presets wait for it. */
  today: string | undefined;
  onApply: (range: DayRange) => void;
};

/** Start and end dates with Show, and presets that apply at once; the API's 90-day limit is checked here first. */
export function RangeForm({ range, today, onApply }: Props) {
  const { register, handleSubmit, reset, formState } = useForm<RangeFormValues>({
    resolver: zodResolver(rangeFormSchema),
    defaultValues: range,
    reValidateMode: 'onChange',
  });
  const { errors } = formState;

  /* The days shown may change without this form (a preset, back and forward): the inputs follow. */
  useEffect(() => reset(range), [range, reset]);

  return (
    <form
      aria-label="Date range"
      noValidate
      onSubmit={handleSubmit((values) => onApply({ start: values.start.trim(), end: values.end.trim() }))}
      className="flex flex-wrap items-start gap-x-4 gap-y-3"
    >
      <div className="flex flex-wrap items-start gap-3">
        <TextField label="Start date" type="date" className="w-40" error={errors.start?.message} {...register('start')} />
        <TextField label="End date" type="date" className="w-40" error={errors.end?.message} {...register('end')} />
        <Button type="submit" variant="primary" className="mt-6">
          Show
        </Button>
      </div>
      <div role="group" aria-label="Presets" className="flex flex-wrap gap-1.5 sm:mt-6">
        {PRESETS.map((preset) => {
          const presetRange = today ? preset.range(today) : undefined;
          const active = presetRange !== undefined && sameRange(presetRange, range);
          return (
            <Button
              key={preset.id}
              size="md"
              variant={active ? 'primary' : 'secondary'}
              aria-pressed={active}
              disabled={!presetRange}
              onClick={() => presetRange && onApply(presetRange)}
            >
              {preset.label}
            </Button>
          );
        })}
      </div>
    </form>
  );
}
