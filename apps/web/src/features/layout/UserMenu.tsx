import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { lazyDialog } from '../../components/lazy-dialog';
import { AccountButton } from './AccountButton';
import type { ApiTokensModalProps } from './ApiTokensModal';
import type { ChangeOwnPasswordModalProps } from './ChangeOwnPasswordModal';
import type { SecurityModalProps } from './SecurityModal';

// Loaded when first opened, not with every signed-in page.
const ChangeOwnPasswordModal = lazyDialog<ChangeOwnPasswordModalProps>(
  () => import('./ChangeOwnPasswordModal').then((module) => module.ChangeOwnPasswordModal),
  (props) => props.opened,
  (props) => ({ ...props, opened: false }),
);

const ApiTokensModal = lazyDialog<ApiTokensModalProps>(
  () => import('./ApiTokensModal').then((module) => module.ApiTokensModal),
  (props) => props.opened,
  (props) => ({ ...props, opened: false }),
);

const SecurityModal = lazyDialog<SecurityModalProps>(
  () => import('./SecurityModal').then((module) => module.SecurityModal),
  (props) => props.opened,
  (props) => ({ ...props, opened: false }),
);

// The menu (Mantine's Menu and floating-ui) loads on the button's first press (issue #27).
const AccountMenu = lazy(() =>
  import('./AccountMenu').then((module) => ({ default: module.AccountMenu })),
);

/** The header's menu of the signed-in account: who is signed in, its password, its second factors, its API tokens. */
export function UserMenu() {
  const [passwordOpened, password] = useDisclosure(false);
  const [apiTokensOpened, apiTokens] = useDisclosure(false);
  const [securityOpened, security] = useDisclosure(false);
  // Until the first press, the button alone, announced as a menu's (as Menu.Target makes it).
  const [pressed, setPressed] = useState<{ focused: boolean } | null>(null);
  const untilLoaded = (
    <AccountButton
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={(event) => {
        const focused = document.activeElement === event.currentTarget;
        setPressed((already) => already ?? { focused });
      }}
    />
  );
  return (
    <>
      {pressed ? (
        <Suspense fallback={untilLoaded}>
          <AccountMenu
            focused={pressed.focused}
            onChangePassword={password.open}
            onApiTokens={apiTokens.open}
            onSecurity={security.open}
          />
        </Suspense>
      ) : (
        untilLoaded
      )}
      <ChangeOwnPasswordModal opened={passwordOpened} onClose={password.close} />
      <ApiTokensModal opened={apiTokensOpened} onClose={apiTokens.close} />
      <SecurityModal opened={securityOpened} onClose={security.close} />
    </>
  );
}
