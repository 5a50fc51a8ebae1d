import { useState } from 'react';
import { AuditTable, type AuditFilter } from '@/shared/audit-table';

const AUDIT_PAGE = 20;

export function AuditTab({ userId }: { userId: number }) {
  const [filter, setFilter] = useState<AuditFilter>({ user_id: userId, limit: AUDIT_PAGE, offset: 0 });
  return (
    <AuditTable
      filter={filter}
      pageSize={AUDIT_PAGE}
      onPage={(page) => {
        setFilter((f) => ({ ...f, offset: (page - 1) * AUDIT_PAGE }));
      }}
    />
  );
}
