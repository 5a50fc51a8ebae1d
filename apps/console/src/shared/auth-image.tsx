import { Image, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { api } from './client';
import { useLocale } from './locale';

type Loaded = { path: string; url: string } | { path: string; failed: true };

/**
 * A file fetched with the operator's bearer token (an <img src> could not send it), as an object URL that
 * is revoked when the path changes or the component goes away. `path` null fetches nothing.
 */
function useAuthObjectUrl(path: string | null): Loaded | null {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    if (path === null) return undefined;
    let objectUrl: string | null = null;
    let cancelled = false;
    api
      .fetchFile({ path, notify: false })
      .then((file) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(file.blob);
        setLoaded({ path, url: objectUrl });
      })
      .catch(() => {
        if (!cancelled) setLoaded({ path, failed: true });
      });
    return () => {
      cancelled = true;
      if (objectUrl !== null) URL.revokeObjectURL(objectUrl);
    };
  }, [path]);
  return loaded?.path === path ? loaded : null;
}

/**
 * A user's uploaded photo: the reviewer's thumbnail (made by the server when the photo was stored, small
 * enough for a queue of many) is shown; clicking it opens the full photo, fetched only then. Both views are
 * audited by the server.
 */
export function AuthImage({ uploadId, alt }: { uploadId: string; alt: string }) {
  const { t } = useLocale();
  const base = `/uploads/${encodeURIComponent(uploadId)}`;
  const thumbnail = useAuthObjectUrl(`${base}/thumbnail`);
  const [previewing, setPreviewing] = useState(false);
  const full = useAuthObjectUrl(previewing ? base : null);

  if (thumbnail === null) return <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>;
  if ('failed' in thumbnail)
    return <Typography.Text type="danger">{t('identity.photoFailed')}</Typography.Text>;
  return (
    <Image
      src={thumbnail.url}
      alt={alt}
      className="console-photo"
      preview={{
        visible: previewing,
        onVisibleChange: setPreviewing,
        // Until the full photo arrives the preview shows the thumbnail, enlarged.
        src: full !== null && !('failed' in full) ? full.url : thumbnail.url,
      }}
    />
  );
}
