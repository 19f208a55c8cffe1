import type { components } from '@labstock/client';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconBarcode } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type KeyboardEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { CameraScanner } from './CameraScanner';
import { looksLikeGs1 } from './codes';
import { useScanEvents } from './wedge';

export type VendorReading = components['schemas']['VendorBarcode'];

/** What the form fills from a reading: its lot and expiry, and only those the barcode carries. */
export interface Filled {
  lot_number?: string;
  expiration_date?: string;
}

/** The product number and serial a form sends with the container, stored with it (docs/scanning.md "Identifiers"). */
export interface ScannedIdentifiers {
  gtin: string | null;
  serial_number: string | null;
}

export function filledFrom(reading: VendorReading): Filled {
  return {
    ...(reading.lot_number ? { lot_number: reading.lot_number } : {}),
    ...(reading.expiration_date ? { expiration_date: reading.expiration_date } : {}),
  };
}

/** The identifiers of a reading, or undefined when it has neither (the submission then sends none). */
export function identifiersFrom(reading: VendorReading): ScannedIdentifiers | undefined {
  if (!reading.gtin && !reading.serial_number) return undefined;
  return { gtin: reading.gtin ?? null, serial_number: reading.serial_number ?? null };
}

/**
 * Receiving by the manufacturer's barcode (docs/scanning.md): a GS1 DataMatrix or GS1-128 read by a scanner into
 * this field or by the camera is sent to POST /barcodes/gs1, and the form's lot and expiry are filled from it. A
 * scan that is not a valid GS1 barcode fills nothing and says why (docs/product.md §14: never half-applied).
 * Reading changes nothing on the server, so it carries no Idempotency-Key; the form is saved as usual, and sends the
 * product number and serial read (identifiersFrom) in that same submission, which stores them with the container.
 */
export function VendorBarcode(props: { onRead: (filled: Filled, reading: VendorReading) => void; takesPageScans?: boolean }) {
  const [text, setText] = useState('');
  const [camera, setCamera] = useState(false);
  const read = useMutation({
    mutationFn: (barcode: string) => unwrap(api.POST('/barcodes/gs1', { body: { barcode } })),
    onSuccess: (reading) => {
      setText('');
      setCamera(false);
      props.onRead(filledFrom(reading), reading);
    },
  });
  const send = (data: string) => {
    if (data.trim() && !read.isPending) read.mutate(data);
  };
  // A form alone on its page also takes a manufacturer's barcode scanned with no field focused (web/src/scan/wedge.ts),
  // instead of the app opening the scan page and leaving the half-filled form.
  useScanEvents((scanned) => {
    if (!looksLikeGs1(scanned)) return false;
    send(scanned);
  }, props.takesPageScans === true);
  // Scanners end with Enter: it reads the barcode here instead of sending the form around this field.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      send(event.currentTarget.value);
    }
  };
  const reading = read.data;
  return (
    <Stack gap={6}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label="Manufacturer’s barcode"
          description="Scan the GS1 barcode on the bottle to fill the lot and expiry and keep its product and serial numbers"
          placeholder="Scan here"
          leftSection={<IconBarcode size={16} aria-hidden />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={onKeyDown}
          data-scan-field
          autoComplete="off"
          style={{ flex: 1 }}
        />
        <Button variant="default" onClick={() => send(text)} loading={read.isPending} disabled={!text.trim()}>
          Read
        </Button>
      </Group>
      <Button variant="subtle" size="compact-sm" onClick={() => setCamera((c) => !c)} w="fit-content">
        {camera ? 'Hide the camera' : 'Use the camera instead'}
      </Button>
      {camera && <CameraScanner onScan={send} autoStart label="Start the camera" />}
      {read.isError && <ErrorNotice error={read.error} title="That barcode could not be read" />}
      {reading && !read.isError && (
        <Text size="sm" c="dimmed" data-testid="vendor-barcode-read">
          {[
            reading.gtin ? `Product number ${reading.gtin}` : null,
            reading.lot_number ? `lot ${reading.lot_number}` : null,
            reading.expiration_date ? `expires ${reading.expiration_date}` : null,
            reading.serial_number ? `serial number ${reading.serial_number}` : null,
          ]
            .filter(Boolean)
            .join(' · ') || 'Read, but it carries no lot or expiry'}
        </Text>
      )}
    </Stack>
  );
}
