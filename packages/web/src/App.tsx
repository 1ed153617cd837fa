import type { ReactNode } from 'react';
import { Link, Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { apiBaseUrl } from './api';
import { useAuth } from './auth';
import { useEvents } from './events';
import { AboutPage } from './pages/About';
import { ActivityPage } from './pages/Activity';
import { ConversationsPage } from './pages/Conversations';
import { DevicePage } from './pages/Device';
import { HomePage } from './pages/Home';
import { IntentDetailPage } from './pages/IntentDetail';
import { IntentsPage } from './pages/Intents';
import { InvitationPage, NetworkDetailPage, NetworksPage, SharedNetworkPage } from './pages/Networks';
import { OnboardingPage } from './pages/Onboarding';
import { OpportunitiesPage, OpportunityDetailPage } from './pages/Opportunities';
import { PrivatePage } from './pages/Private';
import { SettingsPage } from './pages/Settings';
import { SignInPage } from './pages/SignIn';
import { Avatar, Icon, PageTitle, Spinner } from './ui';

const NAV = [
  { to: '/intents', label: 'Intents', icon: 'intents' },
  { to: '/opportunities', label: 'Opportunities', icon: 'opportunities' },
  { to: '/conversations', label: 'Messages', icon: 'chat' },
  { to: '/networks', label: 'Networks', icon: 'networks' },
] as const;

function Header() {
  const { status, me } = useAuth();
  const { unseen, connection } = useEvents();
  return (
    <header className="topbar">
      <Link to="/" className="brand" aria-label="Intro Match home">
        <Icon name="logo" size={24} /> <span>Intro Match</span>
      </Link>
      {status === 'signed-in' && me && (
        <>
          <nav className="mainnav" aria-label="Main">
            {NAV.map((n) => (
              <NavLink key={n.to} to={n.to} className="navlink">
                <Icon name={n.icon} /> <span>{n.label}</span>
              </NavLink>
            ))}
          </nav>
          <div className="topbar-end">
            <NavLink to="/activity" className="navlink bell" aria-label={unseen ? `Activity, ${unseen} new` : 'Activity'}>
              <Icon name="bell" />
              {unseen > 0 && (
                <span className="badge" data-testid="badge">
                  {unseen > 99 ? '99+' : unseen}
                </span>
              )}
            </NavLink>
            <span className={`live live-${connection}`} title={connection === 'live' ? 'Live updates on' : `Live updates: ${connection}`}>
              <span className="sr-only">Live updates: {connection}</span>
            </span>
            <NavLink to="/settings" className="navlink" aria-label="Settings">
              <Avatar name={me.name || me.email || '?'} src={me.avatar} size={28} />
            </NavLink>
          </div>
        </>
      )}
      {status === 'signed-out' && (
        <div className="topbar-end">
          <Link to="/sign-in" className="button primary">
            Sign in
          </Link>
        </div>
      )}
    </header>
  );
}

function Footer() {
  return (
    <footer className="footer">
      <Link to="/about">About</Link>
      <a href={`${apiBaseUrl}/api/reference`}>API reference</a>
      <a href={`${apiBaseUrl}/graphql`}>GraphQL IDE</a>
      <a href={`${apiBaseUrl}/api/openapi.json`}>OpenAPI</a>
      <Link to="/device">Approve a device</Link>
      <Link to="/private">Private conversations</Link>
    </footer>
  );
}

/** Pages for signed-in people: others go to sign-in and come back. */
function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <Spinner />;
  if (status === 'signed-out') return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <>{children}</>;
}

function NotFound() {
  return (
    <section className="narrow">
      <PageTitle>Page not found</PageTitle>
      <p>
        Nothing lives at this address. <Link to="/">Go home</Link>.
      </p>
    </section>
  );
}

export function App() {
  const signedIn = (el: ReactNode) => <RequireAuth>{el}</RequireAuth>;
  return (
    <div className="shell">
      <a href="#main" className="skip">
        Skip to content
      </a>
      <Header />
      <main id="main">
        <Routes>
          <Route path="/" element={<HomePage />} />
          <Route path="/sign-in" element={<SignInPage />} />
          <Route path="/device" element={<DevicePage />} />
          <Route path="/about" element={<AboutPage />} />
          <Route path="/onboarding" element={signedIn(<OnboardingPage />)} />
          <Route path="/intents" element={signedIn(<IntentsPage />)} />
          <Route path="/intents/:id" element={signedIn(<IntentDetailPage />)} />
          <Route path="/networks" element={signedIn(<NetworksPage />)} />
          <Route path="/networks/invitation/:code" element={signedIn(<InvitationPage />)} />
          <Route path="/networks/share/:code" element={signedIn(<SharedNetworkPage />)} />
          <Route path="/networks/:id" element={signedIn(<NetworkDetailPage />)} />
          <Route path="/opportunities" element={signedIn(<OpportunitiesPage />)} />
          <Route path="/opportunities/:id" element={signedIn(<OpportunityDetailPage />)} />
          <Route path="/conversations" element={signedIn(<ConversationsPage />)} />
          <Route path="/conversations/:id" element={signedIn(<ConversationsPage />)} />
          <Route path="/activity" element={signedIn(<ActivityPage />)} />
          <Route path="/settings" element={signedIn(<SettingsPage />)} />
          <Route path="/private" element={<PrivatePage />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </main>
      <Footer />
    </div>
  );
}
