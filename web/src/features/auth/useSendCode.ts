import { App, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorCode, isApiError } from '@/shared/http';
import { checkAccount, getCode } from './api';

/**
 * Sends a verification code for the form's account after checking that the account suits the
 * purpose (free for registration, known for a reset). Errors land on the field they concern:
 * too many requests (7) and bad input (4) under the code, the rest under the account.
 */
export function useSendCode<T extends { account: string; code: string }>(
  form: FormInstance<T>,
  purpose: 'register' | 'reset',
): () => Promise<boolean> {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return async () => {
    try {
      const { account: value } = (await form.validateFields(['account'])) as { account: string };
      await checkAccount(value, purpose);
      await getCode(value, purpose);
      message.success(t('auth.codeSent'));
      return true;
    } catch (e) {
      if (isApiError(e)) {
        const onCode =
          e.code === ErrorCode.InvalidParameter || e.code === ErrorCode.TooManyAttempts;
        const field = onCode ? 'code' : 'account';
        form.setFields([{ name: field as never, errors: [e.message] }]);
      }
      return false;
    }
  };
}
