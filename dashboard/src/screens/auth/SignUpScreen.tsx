import { useMutation } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Code, PasswordInput, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import { z } from 'zod';
import { graphql } from '../../gql';
import { useSession } from '../../session/session';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { AuthFrame } from './AuthFrame';

const SignUp = graphql(`
  mutation DashboardSignUp($input: SignUpInput!) {
    signUp(input: $input) {
      pendingSignUp {
        signUpToken
        expiresIn
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const ConfirmSignUp = graphql(`
  mutation DashboardConfirmSignUp($input: ConfirmSignUpInput!) {
    confirmSignUp(input: $input) {
      account {
        token
        expiresIn
        user {
          id
          email
        }
        business {
          id
          name
        }
        testCredentials {
          mode
          apiKey
          apiSecret
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

const details = z.object({
  name: z.string().trim().min(1, 'Enter your name'),
  businessName: z.string().trim().min(1, "Enter your business's name"),
  email: z.email('Enter a valid email address'),
  password: z.string().min(10, 'Use at least 10 characters'),
});
type Details = z.infer<typeof details>;
const DETAIL_FIELDS = ['name', 'businessName', 'email', 'password'] as const;

interface Account {
  token: string;
  expiresIn: number;
  email: string;
  businessId: string;
  apiKey: string;
  apiSecret: string;
}

/**
 * Sign-up in the API's two steps (docs/graphql-api.md, signUp / confirmSignUp): the details, then
 * the 6-digit code emailed to the address; then the business's test credentials, shown once.
 */
export default function SignUpScreen() {
  const { session, signIn } = useSession();
  const navigate = useNavigate();
  const [pending, setPending] = useState<{ signUpToken: string; email: string } | null>(null);
  const [account, setAccount] = useState<Account | null>(null);
  const [code, setCode] = useState('');
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [signUp, signingUp] = useMutation(SignUp);
  const [confirm, confirming] = useMutation(ConfirmSignUp);
  const form = useForm<Details>({
    resolver: zodResolver(details),
    defaultValues: { name: '', businessName: '', email: '', password: '' },
  });

  if (session && !account) return <Navigate to="/" replace />;

  const submitDetails = form.handleSubmit(async (input) => {
    setRefusal([]);
    try {
      const { data } = await signUp({ variables: { input } });
      const result = data?.signUp;
      if (result?.pendingSignUp) setPending({ signUpToken: result.pendingSignUp.signUpToken, email: input.email });
      else if (result) setRefusal(applyUserErrors(result.userErrors, form.setError, DETAIL_FIELDS));
    } catch (error) {
      setRefusal([{ field: null, code: 'ERROR', message: (error as Error).message }]);
    }
  });

  const submitCode = async () => {
    if (!pending) return;
    setRefusal([]);
    try {
      const { data } = await confirm({ variables: { input: { signUpToken: pending.signUpToken, code } } });
      const created = data?.confirmSignUp.account;
      if (created) {
        setAccount({
          token: created.token,
          expiresIn: created.expiresIn,
          email: created.user.email,
          businessId: created.business.id,
          apiKey: created.testCredentials.apiKey,
          apiSecret: created.testCredentials.apiSecret,
        });
      } else if (data) setRefusal(data.confirmSignUp.userErrors);
    } catch (error) {
      setRefusal([{ field: null, code: 'ERROR', message: (error as Error).message }]);
    }
  };

  const footer = { text: 'Already have an account?', link: 'Sign in', to: '/sign-in' };

  if (account) {
    return (
      <AuthFrame title="Your account is ready" footer={footer}>
        <Stack>
          <Text size="sm">
            These are your business&apos;s test API credentials. The secret is shown only now: copy it somewhere safe.
            You can regenerate the key later under Developers.
          </Text>
          <Text size="sm" fw={600}>
            API key
          </Text>
          <Code block data-testid="test-api-key">
            {account.apiKey}
          </Code>
          <Text size="sm" fw={600}>
            API secret
          </Text>
          <Code block>{account.apiSecret}</Code>
          <Button
            onClick={() => {
              signIn(account.token, account.expiresIn, account.email, account.businessId);
              void navigate('/', { replace: true });
            }}
          >
            Go to the dashboard
          </Button>
        </Stack>
      </AuthFrame>
    );
  }

  if (pending) {
    return (
      <AuthFrame title="Check your email" footer={footer}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submitCode();
          }}
        >
          <Stack>
            <Text size="sm">
              We sent a 6-digit code to <b>{pending.email}</b>. It expires in 15 minutes.
            </Text>
            <UserErrorsAlert errors={refusal} />
            <PinInput
              length={6}
              type="number"
              oneTimeCode
              value={code}
              onChange={setCode}
              aria-label="Sign-up code"
              getInputProps={(index) => ({ 'aria-label': `Digit ${index + 1} of the sign-up code` })}
            />
            <Button type="submit" loading={confirming.loading} disabled={code.length !== 6}>
              Confirm
            </Button>
            <Button variant="subtle" onClick={() => setPending(null)}>
              Use another email
            </Button>
          </Stack>
        </form>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame title="Create your account" footer={footer}>
      <form onSubmit={(event) => void submitDetails(event)} noValidate>
        <Stack>
          <UserErrorsAlert errors={refusal} />
          <TextInput
            label="Your name"
            autoComplete="name"
            {...form.register('name')}
            error={form.formState.errors.name?.message}
          />
          <TextInput
            label="Business name"
            autoComplete="organization"
            {...form.register('businessName')}
            error={form.formState.errors.businessName?.message}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            {...form.register('email')}
            error={form.formState.errors.email?.message}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description="At least 10 characters"
            {...form.register('password')}
            error={form.formState.errors.password?.message}
          />
          <Button type="submit" loading={signingUp.loading}>
            Create account
          </Button>
          <Alert color="gray" variant="light">
            <Text size="xs">You start in test mode: nothing you do moves real money until you go live.</Text>
          </Alert>
        </Stack>
      </form>
    </AuthFrame>
  );
}
