import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { changePasswordBody, PASSWORD_MIN_LENGTH } from '../../../server/contracts/members';
import { useChangePassword } from '../../api/members';
import { TextField } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { applyServerErrors, FormAlert, labelled, type FieldMap } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';

/* The contract's body, plus the new password typed twice (only the form checks that they match). */
const schema = changePasswordBody
  .extend({ confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], error: 'does not match the new password' });
type Input = z.input<typeof schema>;
const LABELS = { current_password: 'Current password', password: 'New password', confirm: 'New password again' } as const;
const FIELDS: FieldMap<Input> = {
  current_password: { name: 'current_password', label: LABELS.current_password },
  password: { name: 'password', label: LABELS.password },
};

type Props = {
  /** Whose password: one's own (the current password is asked for) or, for the vendor, another member's. */
  memberId: string;
  memberName: string;
  own: boolean;
  onClose: () => void;
};

/** Changes a password; the member's other web sessions are signed out, which the dialog says before and after. */
export function PasswordDialog({ memberId, memberName, own, onClose }: Props) {
  const change = useChangePassword();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<Input, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { current_password: '', password: '', confirm: '' },
  });
  const field = (name: keyof typeof LABELS, autoComplete: string, hint?: string) => {
    const message = formState.errors[name]?.message;
    return (
      <TextField
        label={LABELS[name]}
        type="password"
        required
        autoComplete={autoComplete}
        hint={hint}
        error={typeof message === 'string' ? labelled(LABELS[name], message, name) : undefined}
        {...register(name)}
      />
    );
  };
  const submit = handleSubmit(async ({ current_password, password }) => {
    setProblems([]);
    try {
      await change.mutateAsync({ id: memberId, password, ...(own ? { current_password } : {}) });
      announce(
        own
          ? 'Password changed; your other sessions were signed out'
          : `New password set for ${memberName}; their sessions were signed out`,
      );
      onClose();
    } catch (error) {
      setProblems(applyServerErrors(error, setError, FIELDS));
    }
  });
  return (
    <FormDialog
      title={own ? 'Change your password' : `Set a new password for ${memberName}`}
      description={
        own
          ? 'You stay signed in here; everywhere else you will be signed out.'
          : 'They will be signed out everywhere and sign in with the new password.'
      }
      submitLabel={own ? 'Change password' : 'Set password'}
      busy={formState.isSubmitting}
      onClose={onClose}
      onSubmit={submit}
    >
      <FormAlert title="The password was not changed." messages={problems} />
      {own && field('current_password', 'current-password')}
      {field('password', 'new-password', `At least ${PASSWORD_MIN_LENGTH} characters.`)}
      {field('confirm', 'new-password')}
    </FormDialog>
  );
}
