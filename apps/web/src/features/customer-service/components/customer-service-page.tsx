import { ZServiceChannels } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { api } from '@/shared/api/client';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { SupportChat } from './support-chat';

/** GET /api/customer-service (public): the messaging-app channels the operators publish. */
const channelsQuery = {
  queryKey: ['customer-service'] as const,
  queryFn: () => api.request({ path: '/customer-service', schema: ZServiceChannels }),
  staleTime: 5 * 60_000,
};

/** Only https:, line:, mailto: and tel: links are opened (the contract allows no others). */
const safeChannelUrl = (url: string) => (/^(https:\/\/|line:\/\/|mailto:|tel:)/.test(url) ? url : null);

/** /subPackages/customerService/customerService: where to reach us, and a reminder about fraud. */
export function CustomerServicePage() {
  const { t } = useTranslation();
  const { data, isPending } = useQuery(channelsQuery);
  const channels = data?.items ?? [];
  return (
    <div className="funds-page">
      <p className="form-page__intro">{t('customerService.intro')}</p>
      {isPending ? (
        <PageLoading />
      ) : channels.length === 0 ? (
        <EmptyState description={t('customerService.empty')} />
      ) : (
        <List aria-label={t('titles.customerService')} data-testid="service-channels">
          {channels.map((channel) => {
            const url = safeChannelUrl(channel.url);
            return (
              <List.Item
                key={`${channel.name}-${channel.url}`}
                description={channel.hours}
                arrowIcon={url !== null}
              >
                {url === null ? (
                  channel.name
                ) : (
                  <a className="menu-link" href={url} target="_blank" rel="noopener noreferrer">
                    {channel.name}
                  </a>
                )}
              </List.Item>
            );
          })}
        </List>
      )}
      <aside className="fraud-warning" role="note">
        {t('customerService.warning')}
      </aside>
      <SupportChat />
    </div>
  );
}
