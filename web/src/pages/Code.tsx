import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { LabstockError } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { useCode } from '../data/labels';
import { NotFoundPage } from './NotFound';

// /app/c/{code}: what a label's QR code opens (docs/labels.md). It asks what the code is and replaces itself with the
// thing's page, so Back does not land here again; a code the person may not see is "not found", nothing more.

/** The router's own path of an app_path ("/app/inventory/…" → "/inventory/…"). */
export const inApp = (appPath: string) => appPath.replace(/^\/app(?=\/|$)/, '') || '/';

export function CodePage() {
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const found = useCode(code);
  useEffect(() => {
    if (found.data) navigate(inApp(found.data.app_path), { replace: true });
  }, [found.data, navigate]);
  if (found.error instanceof LabstockError && found.error.code === 'not_found') return <NotFoundPage what="label" />;
  if (found.error) return <ErrorNotice error={found.error} />;
  return <Loading label="Opening the label" />;
}
