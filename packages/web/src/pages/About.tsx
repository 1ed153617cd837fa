import { Link } from 'react-router';
import { PageTitle } from '../ui';
import { apiBaseUrl } from '../api';

/** What the index page gave developers: the API reference, the GraphQL IDE, the guides, operations. */
export function AboutPage() {
  const base = apiBaseUrl;
  return (
    <section className="narrow">
      <PageTitle>About Intro Match</PageTitle>
      <p className="lead">An introduction matching service: intents, networks, opportunities, negotiations, events. This app is one client of its API.</p>
      <h2>For developers</h2>
      <ul className="links">
        <li>
          <a href={`${base}/api/reference`}>REST reference</a>: every route of <code>/api</code> (<a href={`${base}/api/openapi.json`}>OpenAPI document</a>)
        </li>
        <li>
          <a href={`${base}/graphql`}>GraphQL IDE</a>: queries, mutations and subscriptions
        </li>
        <li>
          <a href={`${base}/docs`}>Guides</a>: the same Markdown an agent reads from <code>/api/docs</code>
        </li>
        <li>
          <Link to="/device">Approve a device</Link>: where a command-line login sends you
        </li>
        <li>
          <Link to="/settings#api-keys">API keys</Link> in your settings
        </li>
      </ul>
      <h2>Operations</h2>
      <ul className="links">
        <li>
          <a href={`${base}/healthz`}>/healthz</a>, <a href={`${base}/readyz`}>/readyz</a>, <a href={`${base}/metrics`}>/metrics</a>
        </li>
      </ul>
    </section>
  );
}
