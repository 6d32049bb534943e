// Every page of Service C on its demo data, for the browser suite (test/pages.browser.test.ts): real ids and
// names are found through the API. The first path is the README's screenshot. (The calculator's answer is a
// POST: the suite reaches it by submitting the calculator's form with the keyboard.)
import type { ServiceApp } from '../../../src/core/service.ts';

export async function pageTour(app: ServiceApp): Promise<string[]> {
  const grant = (await app.inject('/api/api/search/?limit=1')).json().results[0] as { id: number };
  const recipient = (await app.inject('/api/api/recipients/')).json().top_recipients[0] as { recipient_legal_name: string };
  const project = (await app.inject('/api/api/international/projects/?limit=1')).json().results[0] as { project_number: string };
  return [
    '/statistics',
    '/',
    '/?province=ON&sort=-agreement_start_date&page=2',
    `/grants/${grant.id}`,
    '/recipients',
    `/recipient?name=${encodeURIComponent(recipient.recipient_legal_name)}`,
    '/calculator',
    '/international',
    `/international/projects/${encodeURIComponent(project.project_number)}`,
    '/international/statistics',
    '/international/map',
  ];
}
