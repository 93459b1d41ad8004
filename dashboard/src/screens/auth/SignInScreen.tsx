import { useMutation } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { graphql } from '../../gql';
import { useSession } from '../../session/session';
import { UserErrorsAlert } from '../../ui/UserErrors';
import { AuthFrame } from './AuthFrame';

const SignIn = graphql(`
  mutation DashboardSignIn($input: SignInInput!) {
    signIn(input: $input) {
      session {
        token
        expiresIn
        user {
          id
          email
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const schema = z.object({
  email: z.email('Enter your email address'),
  password: z.string().min(1, 'Enter your password'),
});
type Values = z.infer<typeof schema>;

export default function SignInScreen() {
  const { session, signIn, signedOutReason } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? '/';
  const [refusal, setRefusal] = useState<{ message: string }[]>([]);
  const [run, { loading }] = useMutation(SignIn);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { email: '', password: '' } });

  if (session) return <Navigate to={from} replace />;

  const submit = form.handleSubmit(async (input) => {
    setRefusal([]);
    try {
      const { data } = await run({ variables: { input } });
      const result = data?.signIn;
      if (result?.session) {
        signIn(result.session.token, result.session.expiresIn, result.session.user.email);
        void navigate(from, { replace: true });
      } else if (result) {
        setRefusal(
          result.userErrors.map((error) =>
            error.code === 'UNAUTHORIZED'
              ? {
                  message: `${error.message}. After 5 failed attempts within 15 minutes the account is locked for 15 minutes.`,
                }
              : error,
          ),
        );
      }
    } catch (error) {
      setRefusal([{ message: (error as Error).message }]);
    }
  });

  return (
    <AuthFrame title="Sign in" footer={{ text: 'New to Tessera?', link: 'Create an account', to: '/sign-up' }}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack>
          {signedOutReason === 'expired' && (
            <Alert color="yellow" role="status">
              Your session expired. Sign in again to go on.
            </Alert>
          )}
          <UserErrorsAlert errors={refusal} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            {...form.register('email')}
            error={form.formState.errors.email?.message}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            {...form.register('password')}
            error={form.formState.errors.password?.message}
          />
          <Button type="submit" loading={loading}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
