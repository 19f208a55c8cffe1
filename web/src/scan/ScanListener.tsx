import { useNavigate } from 'react-router';
import { announceScan, useWedge } from './wedge';

/**
 * A keyboard-wedge scanner works on every signed-in page (docs/scanning.md): a scan made outside a text field is
 * offered to the page first (the scan page takes it); otherwise the scan page opens with it.
 */
export function ScanListener() {
  const navigate = useNavigate();
  useWedge((text) => {
    if (!announceScan(text)) navigate(`/scan?code=${encodeURIComponent(text)}`);
  });
  return null;
}
