import { Anchor, Code, Stack, Table, Text } from '@mantine/core';

// The columns of a lab's inventory file as people read them (docs/csv.md, "The file"). The header names are the
// file's own words, which the person types into a spreadsheet, so they are shown as they are; the labels are what
// the page calls each column when it explains a problem in a row.

interface Column {
  header: string;
  label: string;
  about: string;
}

const COLUMNS: Column[] = [
  { header: 'name', label: 'Name', about: 'What the item is called. The only column a file must have.' },
  { header: 'type', label: 'Type', about: "One of the lab's item types, by its name. An import does not create types." },
  { header: 'vendor', label: 'Vendor', about: 'Who sells it.' },
  { header: 'catalog_number', label: 'Catalog number', about: "The vendor's catalog number." },
  { header: 'cas_number', label: 'CAS number', about: 'For chemicals, e.g. 67-68-5.' },
  { header: 'unit_size', label: 'Unit size', about: 'What one unit holds, e.g. 500 mL.' },
  { header: 'price', label: 'Price', about: 'A number such as 12.50.' },
  {
    header: 'quantity',
    label: 'Quantity',
    about:
      'How much there is, a number such as 2.5. In a lab that uses instances, each row with a quantity is one instance (a bottle, a box).',
  },
  { header: 'lot_number', label: 'Lot number', about: 'The lot or batch.' },
  { header: 'expiration_date', label: 'Expiration date', about: 'A date written 2027-03-31 (year, month, day).' },
  {
    header: 'location',
    label: 'Location',
    about:
      'Where it is, from the room down, levels separated by a slash with spaces: Room 101 / Freezer A / Shelf 2. Missing places are created.',
  },
  { header: 'serial_number', label: 'Serial number', about: 'For equipment.' },
  { header: 'url', label: 'Web page', about: "The product's page, starting with http:// or https://." },
  { header: 'vendor_product_id', label: 'Shop product', about: "The shop product's id, as an export writes it." },
  { header: 'auto_reminder', label: 'Expiry reminder', about: '1WEEK, 2WEEK, 1MONTH or 3MONTH before it expires, or NONE.' },
  { header: 'technical_details', label: 'Technical details', about: 'Notes: storage, hazards, anything else.' },
];

/** The columns an export adds, which an import refuses (an import creates; it does not update). */
const EXPORT_ONLY: Record<string, string> = { item_id: 'Item id', instance_id: 'Instance id' };

/** What the page calls a column of the file when it explains a problem ("Quantity"), else the header as written. */
export function columnLabel(column: string): string {
  return COLUMNS.find((c) => c.header === column)?.label ?? EXPORT_ONLY[column] ?? column;
}

/** A file with the header row only, ready to fill in a spreadsheet. */
export const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(`${COLUMNS.map((c) => c.header).join(',')}\r\n`)}`;
export const TEMPLATE_NAME = 'labstock-inventory-template.csv';

/** The column list, with a template to download. */
export function CsvColumns() {
  return (
    <Stack gap="xs" data-testid="csv-columns">
      <Text size="sm">
        The first line of the file names its columns, in any order; every other line is one row. Only <Code>name</Code> is required. Save
        the file from your spreadsheet as “CSV UTF-8”.{' '}
        <Anchor href={TEMPLATE_HREF} download={TEMPLATE_NAME}>
          Download a template
        </Anchor>{' '}
        with every column.
      </Text>
      <Table.ScrollContainer minWidth={320}>
        <Table aria-label="Columns of the file" verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Column</Table.Th>
              <Table.Th>What it holds</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {COLUMNS.map((c) => (
              <Table.Tr key={c.header}>
                <Table.Td>
                  <Code>{c.header}</Code>
                </Table.Td>
                <Table.Td>{c.about}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm">
        Headers may also be written the way people do: <Code>Qty</Code>, <Code>Lot</Code>, <Code>Expiry</Code>, <Code>Catalog #</Code>,{' '}
        <Code>Supplier</Code>, <Code>Notes</Code>… A column Labstock does not know is a problem, not skipped, so a misspelt one cannot lose
        data. An exported file has <Code>item_id</Code> and <Code>instance_id</Code> columns too: clear them to import its rows into a lab
        as new items.
      </Text>
    </Stack>
  );
}
