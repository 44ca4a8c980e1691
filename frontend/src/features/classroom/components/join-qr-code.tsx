import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { qrCodeDataUrl } from '../lib/qr-code';

/** The join link as a QR code, large enough to scan off a projector from the back of a room. */
export function JoinQrCode({ link }: { link: string }) {
  const { t } = useTranslation('classroom');
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    qrCodeDataUrl(link).then(
      (url) => {
        if (current) setSrc(url);
      },
      // A link too long for a QR code (it is not): the code and the link are shown anyway.
      () => {
        if (current) setSrc(null);
      },
    );
    return () => {
      current = false;
    };
  }, [link]);
  if (src === null) return null;
  return <img className="class-header__qr" src={src} alt={t('header.qrAlt', { link })} data-testid="join-qr" />;
}
