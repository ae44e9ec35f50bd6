import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormRegister, type FieldErrors } from 'react-hook-form';
import { z } from 'zod';
import { createMemberBody, PASSWORD_MIN_LENGTH, updateMemberBody } from '../../../server/contracts/members';
import { memberName, useCreateMember, useUpdateMember, type TeamMember } from '../../api/members';
import { SelectField, TextField, type TextFieldProps } from '../../components/ui/field';
import { FormDialog } from '../../components/ui/form-dialog';
import { applyServerErrors, FormAlert, labelled, type FieldMap } from '../../components/ui/form-error';
import { useStatus } from '../../components/ui/status-message';
import { leaders, ROLE_LABELS } from './member-tree';

const LABELS: Record<string, string> = {
  username: 'Username',
  password: 'Password',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'E-mail',
  email_address: 'E-mail',
  phone: 'Phone',
  role: 'Role',
  manager_id: 'Manager',
  billing_item_id: 'Billing item',
  billing_group_id: 'Billing group',
  subgroup_id: 'Subgroup',
};
const fieldsOf = <T extends FieldValues>(names: string[]): FieldMap<T> =>
  Object.fromEntries(names.map((n) => [n, { name: n as Path<T>, label: LABELS[n]! }]));

/** A labelled text input wired to a form, its error worded with the field's label. */
function useTextInput<T extends FieldValues>(register: UseFormRegister<T>, errors: FieldErrors<T>) {
  return (name: Path<T>, extra: Partial<TextFieldProps> = {}) => {
    const message = errors[name]?.message;
    return (
      <TextField
        label={LABELS[name]!}
        autoComplete="off"
        error={typeof message === 'string' ? labelled(LABELS[name]!, message, name) : undefined}
        {...extra}
        {...register(name)}
      />
    );
  };
}

/* Each dialog below is mounted when it opens, so its form starts from its values (a reset after mounting could drop typing). */

/* A new member. The manager is chosen from a list, so the form holds its id as text. */
const newSchema = createMemberBody.extend({ manager_id: z.string().min(1, { error: 'is required' }) });
type NewInput = z.input<typeof newSchema>;
const NEW_FIELDS = fieldsOf<NewInput>([
  'username',
  'password',
  'first_name',
  'last_name',
  'email',
  'phone',
  'role',
  'manager_id',
  'billing_item_id',
  'billing_group_id',
  'subgroup_id',
]);
const BILLING = ['billing_item_id', 'billing_group_id', 'subgroup_id'] as const;
/* Billing values come from the operator's plan; these are the ones new accounts get unless told otherwise. */
const BILLING_DEFAULTS = { billing_item_id: '1', billing_group_id: 'default', subgroup_id: 'default' };

export function NewMemberDialog({ managerId, team, onClose }: { managerId: string | null; team: TeamMember[]; onClose: () => void }) {
  return managerId === null ? null : <NewMemberForm key={managerId} managerId={managerId} team={team} onClose={onClose} />;
}

function NewMemberForm({ managerId, team, onClose }: { managerId: string; team: TeamMember[]; onClose: () => void }) {
  const create = useCreateMember();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<NewInput, unknown, z.output<typeof newSchema>>({
    resolver: zodResolver(newSchema),
    defaultValues: {
      username: '',
      password: '',
      first_name: '',
      last_name: '',
      email: '',
      phone: '',
      role: 'member',
      manager_id: managerId,
      ...BILLING_DEFAULTS,
    },
  });
  const input = useTextInput(register, formState.errors);

  const submit = handleSubmit(async ({ manager_id, ...body }) => {
    setProblems([]);
    try {
      await create.mutateAsync({ ...body, manager_id: Number(manager_id) });
      announce(`Member ${[body.first_name, body.last_name].filter(Boolean).join(' ')} created`);
      onClose();
    } catch (error) {
      setProblems(applyServerErrors(error, setError, NEW_FIELDS, { conflictField: NEW_FIELDS.username }));
    }
  });
  const select = (name: 'role' | 'manager_id', options: { value: string; label: string }[]) => {
    const message = formState.errors[name]?.message;
    return (
      <SelectField
        label={LABELS[name]!}
        required
        options={options}
        error={message ? labelled(LABELS[name]!, message, name) : undefined}
        {...register(name)}
      />
    );
  };
  const billingTrouble = BILLING.some((f) => formState.errors[f]);

  return (
    <FormDialog size="lg" title="New member" submitLabel="Create member" busy={formState.isSubmitting} onClose={onClose} onSubmit={submit}>
      <FormAlert title="The member was not created." messages={problems} />
      <div className="grid gap-4 sm:grid-cols-2">
        {input('first_name', { required: true })}
        {input('last_name')}
        {input('email', { type: 'email', required: true })}
        {input('phone', { type: 'tel' })}
        {input('username', { required: true, hint: '3 to 64 letters, digits or . _ @ + -', autoCapitalize: 'none', spellCheck: false })}
        {input('password', {
          type: 'password',
          required: true,
          autoComplete: 'new-password',
          hint: `At least ${PASSWORD_MIN_LENGTH} characters.`,
        })}
        {select('role', [
          { value: 'member', label: 'Rep' },
          { value: 'manager', label: 'Manager' },
        ])}
        {select(
          'manager_id',
          leaders(team).map((m) => ({ value: m.user_id, label: `${memberName(m)} (${ROLE_LABELS[m.role]})` })),
        )}
      </div>
      <details open={billingTrouble || undefined} className="rounded-md border border-zinc-200 px-3 py-2">
        <summary className="cursor-pointer text-sm font-medium text-zinc-700">Billing (defaults of your operator’s plan)</summary>
        <div className="mt-3 grid gap-4 sm:grid-cols-3">
          {input('billing_item_id', { inputMode: 'numeric' })}
          {input('billing_group_id')}
          {input('subgroup_id')}
        </div>
      </details>
    </FormDialog>
  );
}

/* A member's own details. */
const editSchema = updateMemberBody.pick({ first_name: true, last_name: true, email_address: true, phone: true });
type EditInput = z.input<typeof editSchema>;
const EDIT_FIELDS = fieldsOf<EditInput>(['first_name', 'last_name', 'email_address', 'phone']);

export function EditMemberDialog({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  return member ? <EditMemberForm key={member.user_id} member={member} onClose={onClose} /> : null;
}

function EditMemberForm({ member, onClose }: { member: TeamMember; onClose: () => void }) {
  const update = useUpdateMember();
  const { announce } = useStatus();
  const [problems, setProblems] = useState<string[]>([]);
  const { register, handleSubmit, setError, formState } = useForm<EditInput, unknown, z.output<typeof editSchema>>({
    resolver: zodResolver(editSchema),
    defaultValues: {
      first_name: member.first_name,
      last_name: member.last_name,
      email_address: member.email_address,
      phone: member.phone ?? '',
    },
  });
  const input = useTextInput(register, formState.errors);

  const submit = handleSubmit(async (values) => {
    setProblems([]);
    try {
      await update.mutateAsync({ id: member.user_id, ...values });
      announce(`${[values.first_name, values.last_name].filter(Boolean).join(' ') || memberName(member)} saved`);
      onClose();
    } catch (error) {
      setProblems(applyServerErrors(error, setError, EDIT_FIELDS));
    }
  });

  return (
    <FormDialog
      size="lg"
      title={`Edit ${memberName(member)}`}
      submitLabel="Save member"
      busy={formState.isSubmitting}
      onClose={onClose}
      onSubmit={submit}
    >
      <FormAlert title="The member was not saved." messages={problems} />
      <div className="grid gap-4 sm:grid-cols-2">
        {input('first_name', { required: true })}
        {input('last_name')}
        {input('email_address', { type: 'email' })}
        {input('phone', { type: 'tel' })}
      </div>
    </FormDialog>
  );
}
