import { Image, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { api } from './client';
import { useLocale } from './locale';

type Loaded = { uploadId: string; url: string } | { uploadId: string; failed: true };

/**
 * A user's uploaded photo: fetched with the operator's bearer token (an <img src> could not send it),
 * shown from an object URL that is revoked when the component goes away; click to enlarge.
 */
export function AuthImage({ uploadId, alt }: { uploadId: string; alt: string }) {
  const { t } = useLocale();
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    api
      .fetchFile({ path: `/uploads/${encodeURIComponent(uploadId)}`, notify: false })
      .then((file) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(file.blob);
        setLoaded({ uploadId, url: objectUrl });
      })
      .catch(() => {
        if (!cancelled) setLoaded({ uploadId, failed: true });
      });
    return () => {
      cancelled = true;
      if (objectUrl !== null) URL.revokeObjectURL(objectUrl);
    };
  }, [uploadId]);

  if (loaded?.uploadId !== uploadId) {
    return <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>;
  }
  if ('failed' in loaded) return <Typography.Text type="danger">{t('identity.photoFailed')}</Typography.Text>;
  return <Image src={loaded.url} alt={alt} className="console-photo" />;
}
