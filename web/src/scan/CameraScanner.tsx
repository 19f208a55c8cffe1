import { Alert, Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconCamera, IconCameraOff } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { barcodeDetector } from './detector';

/** How often a frame is read: often enough to feel instant, rarely enough to leave a phone cool. */
const EVERY_MS = 120;
/** The same symbol held in front of the camera counts once until it has been out of view this long. */
const SAME_AGAIN_MS = 2500;

function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'The camera is not allowed for this site. Allow it in the browser’s settings, or use a scanner or type the code.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'No camera was found on this device.';
  if (name === 'NotReadableError') return 'The camera is in use by another application.';
  return 'The camera could not be started. Use a scanner or type the code instead.';
}

/**
 * The device's camera reading barcodes (the back camera on a phone). Started by a tap, so no page asks for the camera
 * unasked; stopped when the person leaves. Each symbol read calls `onScan` once while it stays in view.
 */
export function CameraScanner(props: { onScan: (text: string) => void; label?: string; autoStart?: boolean }) {
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const onScan = useRef(props.onScan);
  onScan.current = props.onScan;
  const [running, setRunning] = useState(false);
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const stop = useCallback(() => {
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
    setRunning(false);
  }, []);

  const start = useCallback(async () => {
    setProblem(null);
    setStarting(true);
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('no camera API', 'NotFoundError');
      const [media] = await Promise.all([
        navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false }),
        barcodeDetector(),
      ]);
      stream.current = media;
      if (video.current) {
        video.current.srcObject = media;
        await video.current.play().catch(() => undefined);
      }
      setRunning(true);
    } catch (error) {
      setProblem(cameraProblem(error));
    } finally {
      setStarting(false);
    }
  }, []);

  useEffect(() => {
    if (props.autoStart) void start();
    return stop;
  }, [props.autoStart, start, stop]);

  useEffect(() => {
    if (!running) return;
    let cancelled = false;
    let last: { text: string; at: number } | null = null;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      const el = video.current;
      if (cancelled || !el) return;
      if (el.readyState >= 2 && el.videoWidth > 0) {
        try {
          const detector = await barcodeDetector();
          const found = await detector.detect(el);
          const now = performance.now();
          const text = found[0];
          if (text && !cancelled) {
            if (!last || last.text !== text || now - last.at > SAME_AGAIN_MS) onScan.current(text);
            last = { text, at: now };
          }
        } catch {
          // A frame that cannot be read (the video resizing) is skipped; the next one is tried.
        }
      }
      if (!cancelled) timer = setTimeout(tick, EVERY_MS);
    };
    timer = setTimeout(tick, 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [running]);

  return (
    <Stack gap="xs">
      <Box
        pos="relative"
        bg="dark.8"
        style={{ borderRadius: 8, overflow: 'hidden', aspectRatio: '4 / 3', maxWidth: 480, display: running ? 'block' : 'none' }}
      >
        <video ref={video} muted playsInline aria-label="Camera" style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
      </Box>
      {problem && (
        <Alert color="orange" title="No camera" role="alert">
          {problem}
        </Alert>
      )}
      <Group gap="xs">
        {running ? (
          <Button variant="default" leftSection={<IconCameraOff size={16} aria-hidden />} onClick={stop}>
            Stop the camera
          </Button>
        ) : (
          <Button leftSection={<IconCamera size={16} aria-hidden />} onClick={() => void start()} loading={starting}>
            {props.label ?? 'Scan with the camera'}
          </Button>
        )}
        {running && (
          <Text size="sm" c="dimmed">
            Hold the label in view.
          </Text>
        )}
      </Group>
    </Stack>
  );
}
