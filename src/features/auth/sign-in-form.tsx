import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { signInBody } from '../../../server/contracts/members';
import { useSignIn } from '../../api/auth';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { ApiError, errorMessage } from '../../lib/api-client';

type SignInValues = z.input<typeof signInBody>;

function signInError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return error.debugCodes[0]?.reason || 'Wrong username or password.';
    if (error.status === 429) {
      const reason = error.debugCodes[0]?.reason;
      if (reason) return reason;
      const minutes = error.retryAfterSeconds ? Math.ceil(error.retryAfterSeconds / 60) : null;
      return `Too many failed sign-ins. Try again${minutes ? ` in ${minutes} minute${minutes === 1 ? '' : 's'}` : ' later'}.`;
    }
  }
  return errorMessage(error);
}

export function SignInForm({ onSignedIn, notice }: { onSignedIn: () => void; notice?: string | undefined }) {
  const signIn = useSignIn();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues, unknown, z.output<typeof signInBody>>({
    resolver: zodResolver(signInBody),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signIn.mutateAsync(values);
      onSignedIn();
    } catch {
      /* shown from signIn.error */
    }
  });

  const busy = isSubmitting || signIn.isPending;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div role="alert" className="empty:hidden">
        {signIn.isError && !busy ? (
          <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">{signInError(signIn.error)}</p>
        ) : notice ? (
          <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">{notice}</p>
        ) : null}
      </div>
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        error={errors.username ? `Username ${errors.username.message}.` : undefined}
        {...register('username')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password ? `Password ${errors.password.message}.` : undefined}
        {...register('password')}
      />
      <Button type="submit" variant="primary" className="w-full" busy={busy}>
        Sign in
      </Button>
    </form>
  );
}
