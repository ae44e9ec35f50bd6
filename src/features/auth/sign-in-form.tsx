import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { MemberRecord } from '../../../server/contracts/members';
import { signInBody } from '../../../server/contracts/members';
import { useResumeSession, useSignIn } from '../../api/auth';
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

type Props = {
  onSignedIn: (member: MemberRecord) => void;
  notice?: string | undefined;
  /** Signing in again in place: this member's username is fixed, and nothing cached is dropped. */
  resumeAs?: string | undefined;
};

export function SignInForm({ onSignedIn, notice, resumeAs }: Props) {
  const fresh = useSignIn();
  const resume = useResumeSession();
  const signIn = resumeAs ? resume : fresh;
  const messageRef = useRef<HTMLParagraphElement>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues, unknown, z.output<typeof signInBody>>({
    resolver: zodResolver(signInBody),
    defaultValues: { username: resumeAs ?? '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      onSignedIn(await signIn.mutateAsync(values));
    } catch {
      /* shown from signIn.error */
    }
  });

  const busy = isSubmitting || signIn.isPending;
  const failed = signIn.isError && !busy;

  /* A refused sign-in says why where the user is: focus moves to the message. */
  useEffect(() => {
    if (failed) messageRef.current?.focus();
  }, [failed, signIn.failureCount, signIn.submittedAt]);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div role="alert" className="empty:hidden">
        {failed ? (
          <p
            ref={messageRef}
            tabIndex={-1}
            className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 focus:outline-none"
          >
            {signInError(signIn.error)}
          </p>
        ) : notice ? (
          <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">{notice}</p>
        ) : null}
      </div>
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus={!resumeAs}
        readOnly={Boolean(resumeAs)}
        error={errors.username ? `Username ${errors.username.message}.` : undefined}
        {...register('username')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        data-autofocus={resumeAs ? true : undefined}
        error={errors.password ? `Password ${errors.password.message}.` : undefined}
        {...register('password')}
      />
      <Button type="submit" variant="primary" className="w-full" busy={busy}>
        Sign in
      </Button>
    </form>
  );
}
