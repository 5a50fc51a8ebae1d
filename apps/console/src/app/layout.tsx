import {
  AuditOutlined,
  BankOutlined,
  CreditCardOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  FundOutlined,
  IdcardOutlined,
  KeyOutlined,
  LogoutOutlined,
  MoneyCollectOutlined,
  PayCircleOutlined,
  PictureOutlined,
  ReadOutlined,
  RocketOutlined,
  SettingOutlined,
  TagsOutlined,
  TeamOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEmpty } from '@kabuto/contract';
import { Badge, Button, Layout, Menu, Result, Space, Tag, Typography, type MenuProps } from 'antd';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '@/shared/client';
import { useLocale } from '@/shared/locale';
import { LanguageSwitcher } from '@/shared/language-switcher';
import { PageLoading } from '@/shared/page-loading';
import { awaitingConfirmation, isAdministrator, proposalsQuery, useMe } from '@/shared/queries';
import { sessionStore, useSession } from '@/shared/session';
import { ReconnectingAlert } from './reconnecting-alert';

function menuKeyOf(pathname: string): string {
  if (pathname.startsWith('/users')) return '/users';
  return pathname;
}

export function ConsoleLayout() {
  const { token } = useSession();
  const { t } = useLocale();
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const admin = isAdministrator(me.data);
  // the four-eyes proposals another administrator could confirm (ADR 0049): counted next to Settings
  const proposals = useQuery({
    ...proposalsQuery,
    enabled: token !== null && admin && me.data?.passkey_required !== true,
    refetchInterval: 60_000,
  });

  if (token === null) return <Navigate to="/login" replace />;
  if (me.isPending) return <PageLoading />;
  if (me.isError) {
    return (
      <Result
        status="error"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => void me.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  const operator = me.data;
  if (operator.must_change_password) return <Navigate to="/password" replace />;
  if (operator.passkey_required) return <Navigate to="/passkeys" replace />;
  const awaiting = admin ? awaitingConfirmation(proposals.data?.items ?? [], operator.id).length : 0;

  const link = (to: string, label: string) => <Link to={to}>{label}</Link>;
  const items: MenuProps['items'] = [
    { key: '/', icon: <DashboardOutlined />, label: link('/', t('nav.dashboard')) },
    {
      type: 'group',
      key: 'queues',
      label: t('nav.queues'),
      children: [
        {
          key: '/queues/identity',
          icon: <IdcardOutlined />,
          label: link('/queues/identity', t('nav.identity')),
        },
        {
          key: '/queues/bank-accounts',
          icon: <BankOutlined />,
          label: link('/queues/bank-accounts', t('nav.bankAccounts')),
        },
        {
          key: '/queues/deposits',
          icon: <MoneyCollectOutlined />,
          label: link('/queues/deposits', t('nav.deposits')),
        },
        {
          key: '/queues/withdrawals',
          icon: <WalletOutlined />,
          label: link('/queues/withdrawals', t('nav.withdrawals')),
        },
        {
          key: '/reconciliation',
          icon: <FileSearchOutlined />,
          label: link('/reconciliation', t('reconciliation.nav')),
        },
        {
          key: '/loans',
          icon: <CreditCardOutlined />,
          label: link('/loans', t('loans.nav')),
        },
      ],
    },
    { key: '/offerings', icon: <RocketOutlined />, label: link('/offerings', t('offerings.nav')) },
    { key: '/support', icon: <CustomerServiceOutlined />, label: link('/support', t('nav.support')) },
    { key: '/news', icon: <ReadOutlined />, label: link('/news', t('nav.news')) },
    { key: '/banners', icon: <PictureOutlined />, label: link('/banners', t('nav.banners')) },
    { key: '/products', icon: <FundOutlined />, label: link('/products', t('nav.products')) },
    { key: '/dividends', icon: <PayCircleOutlined />, label: link('/dividends', t('nav.dividends')) },
    { key: '/users', icon: <UserOutlined />, label: link('/users', t('nav.users')) },
    {
      type: 'group',
      key: 'system',
      label: t('nav.system'),
      children: [
        {
          key: '/settings',
          icon: <SettingOutlined />,
          label: (
            <Link
              to="/settings"
              aria-label={
                awaiting > 0
                  ? `${t('nav.settings')} (${t('nav.pendingProposals', { count: awaiting })})`
                  : undefined
              }
            >
              {t('nav.settings')}
              {awaiting > 0 && (
                <Badge
                  count={awaiting}
                  size="small"
                  offset={[8, -2]}
                  title={t('nav.pendingProposals', { count: awaiting })}
                  aria-hidden
                  data-testid="nav-proposals-badge"
                />
              )}
            </Link>
          ),
        },
        {
          key: '/invitation-codes',
          icon: <TagsOutlined />,
          label: link('/invitation-codes', t('nav.invitationCodes')),
        },
        ...(admin
          ? [{ key: '/operators', icon: <TeamOutlined />, label: link('/operators', t('nav.operators')) }]
          : []),
        { key: '/audit', icon: <AuditOutlined />, label: link('/audit', t('nav.audit')) },
        { key: '/passkeys', icon: <KeyOutlined />, label: link('/passkeys', t('nav.passkeys')) },
      ],
    },
  ];

  const logout = async () => {
    try {
      await api.request({ path: '/logout', body: {}, schema: ZEmpty, notify: false });
    } catch {
      // Signing out locally is what matters; the session ends on the server at its expiry anyway.
    }
    sessionStore.clear();
    queryClient.clear();
    void navigate('/login', { replace: true });
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider width={232} breakpoint="lg" collapsedWidth={0}>
        <div className="console-brand">{t('app.name')}</div>
        <nav aria-label={t('nav.menu')}>
          <Menu theme="dark" mode="inline" selectedKeys={[menuKeyOf(location.pathname)]} items={items} />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: '#fff',
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            gap: 16,
            paddingInline: 24,
          }}
        >
          <Space>
            <Typography.Text>{t('nav.signedInAs', { name: operator.display_name })}</Typography.Text>
            <Tag color={admin ? 'volcano' : 'blue'}>{t(`roles.${operator.role}`)}</Tag>
          </Space>
          <LanguageSwitcher />
          <Button icon={<KeyOutlined />} onClick={() => void navigate('/password')}>
            {t('nav.changePassword')}
          </Button>
          <Button icon={<LogoutOutlined />} onClick={() => void logout()}>
            {t('nav.logout')}
          </Button>
        </Layout.Header>
        {/* antd renders the content as the page's <main> landmark. */}
        <Layout.Content style={{ padding: 24 }}>
          <ReconnectingAlert />
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

/** Pages only administrators may open; the server refuses their calls to others anyway (FORBIDDEN). */
export function AdminOnly() {
  const me = useMe();
  const { t } = useLocale();
  if (!isAdministrator(me.data)) {
    return <Result status="403" title="403" subTitle={t('errors.FORBIDDEN', { ns: 'contract' })} />;
  }
  return <Outlet />;
}

export function NotFound() {
  const { t } = useLocale();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('common.notFound')}
      extra={
        <Link to="/">
          <Button type="primary">{t('common.backToDashboard')}</Button>
        </Link>
      }
    />
  );
}
