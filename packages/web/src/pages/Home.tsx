import { Link, Navigate } from 'react-router';
import { useAuth } from '../auth';
import { Icon, PageTitle, Spinner } from '../ui';

/** `/`: what the service is, for a visitor; the right next page for a signed-in person. */
export function HomePage() {
  const { status, me } = useAuth();
  if (status === 'loading') return <Spinner />;
  if (status === 'signed-in' && me) return <Navigate to={me.onboardingCompletedAt ? '/opportunities' : '/onboarding'} replace />;
  return (
    <section className="hero">
      <PageTitle>Meet the people who complement what you do</PageTitle>
      <p className="lead">
        Say what you are looking for, or what you can offer. Intro Match finds the people in your networks whose intents fit yours; your agents negotiate the
        introduction, and you both approve before a chat opens.
      </p>
      <div className="row wrap">
        <Link to="/sign-in" className="button primary">
          Get started
        </Link>
        <Link to="/about" className="button">
          For developers
        </Link>
      </div>
      <ul className="features">
        <li>
          <Icon name="intents" /> <strong>Publish an intent.</strong> We check the draft and ask for what is missing.
        </li>
        <li>
          <Icon name="discover" /> <strong>Discover.</strong> Ranked counterparties from the networks you share.
        </li>
        <li>
          <Icon name="opportunities" /> <strong>Negotiate.</strong> Follow each turn live; approve when it fits.
        </li>
        <li>
          <Icon name="chat" /> <strong>Chat.</strong> Both sides said yes: talk directly.
        </li>
      </ul>
    </section>
  );
}
