import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchUploadBlob } from '@/shared/api/uploads';

/**
 * A stored upload shown to its owner: fetched with the session token (an <img src> could not send it)
 * and shown through an object URL, released when it goes.
 */
export function AuthImage({ uploadId, alt }: { uploadId: string; alt: string }) {
  const { t } = useTranslation();
  const { data, isError } = useQuery({
    queryKey: ['upload', uploadId],
    queryFn: () => fetchUploadBlob(uploadId),
    staleTime: Infinity,
    gcTime: 60_000,
  });
  const url = useMemo(() => (data === undefined ? null : URL.createObjectURL(data)), [data]);
  useEffect(
    () => () => {
      if (url !== null) URL.revokeObjectURL(url);
    },
    [url],
  );
  if (isError) return <span className="auth-image auth-image--missing">{t('upload.previewFailed')}</span>;
  if (url === null) return <span className="auth-image auth-image--loading" aria-busy="true" />;
  return <img className="auth-image" src={url} alt={alt} />;
}
