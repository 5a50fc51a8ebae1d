import { ZServiceChannels, type TServiceChannel } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { api } from '@/shared/api/client';
import { useLocale } from '@/shared/i18n/use-locale';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { channelHours } from '../channel-hours';
import { SupportChat } from './support-chat';

/** GET /api/customer-service (public): the messaging-app channels the operators publish. */
const channelsQuery = {
  queryKey: ['customer-service'] as const,
  queryFn: () => api.request({ path: '/customer-service', schema: ZServiceChannels }),
  staleTime: 5 * 60_000,
};

/** Only https:, line:, mailto: and tel: links are opened (the contract allows no others). */
const safeChannelUrl = (url: string) => (/^(https:\/\/|line:\/\/|mailto:|tel:)/.test(url) ? url : null);

/** A channel's hours in Tokyo time and in the reader's own zone, whether it is staffed now, and its note. */
function ChannelDescription({ channel }: { channel: TServiceChannel }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const dash = t('customerService.rangeDash');
  const hours = channel.schedule ? channelHours(channel.schedule, locale, new Date(), undefined, dash) : null;
  return (
    <>
      {hours && (
        <span className="channel-hours">
          {t('customerService.japanTime', { days: hours.days, hours: hours.tokyo })}{' '}
          <span className={hours.openNow ? 'channel-hours__open' : 'channel-hours__closed'}>
            {t(hours.openNow ? 'customerService.openNow' : 'customerService.closedNow')}
          </span>
          {hours.local && (
            <span className="channel-hours__local" data-testid="channel-local-hours">
              {t('customerService.yourTime', {
                zone: hours.local.zone,
                from: hours.local.from,
                to: hours.local.to,
              })}
              {hours.local.dayShift === -1 && t('customerService.dayBefore')}
              {hours.local.dayShift === 1 && t('customerService.dayAfter')}
            </span>
          )}
        </span>
      )}
      {channel.hours && <span className="channel-hours__note">{channel.hours}</span>}
    </>
  );
}

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
                description={<ChannelDescription channel={channel} />}
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
