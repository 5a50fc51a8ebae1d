import { useQueries } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Statistic, Typography } from 'antd';
import { Link } from 'react-router';
import { queueQuery, QUEUE_KINDS } from './queue-api';
import { useLocale } from '@/shared/locale';
import { QUEUES } from './queues';

/** How many items wait in each review queue. */
export function DashboardPage() {
  const { t } = useLocale();
  const counts = useQueries({
    queries: QUEUE_KINDS.map((kind) => ({
      ...queueQuery(kind, { status: 'pending', limit: 1, offset: 0 }),
      refetchInterval: 30_000,
    })),
  });
  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 22 }}>
        {t('dashboard.title')}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        {QUEUE_KINDS.map((kind, i) => {
          const query = counts[i];
          const title = t(QUEUES[kind].title);
          return (
            <Col key={kind} xs={24} sm={12} xl={6}>
              <Card title={title}>
                <section aria-label={title}>
                  <Statistic
                    title={t('dashboard.pending')}
                    value={query?.data?.total ?? '—'}
                    loading={query?.isPending ?? true}
                  />
                  <Link to={`/queues/${kind}`}>{t('dashboard.openQueue')}</Link>
                </section>
              </Card>
            </Col>
          );
        })}
      </Row>
      <Alert type="info" showIcon message={t('dashboard.principle')} style={{ marginTop: 24 }} />
    </>
  );
}
