import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './ui/layout/App'
import { ErrorBoundary } from './ui/layout/ErrorBoundary'
import { registerServiceWorker } from './ui/layout/serviceWorker'
import { applyTheme, loadTheme } from './ui/layout/theme'
import './ui/app.css'

// Before the first render, so a remembered dark theme never flashes light.
applyTheme(loadTheme())

const root = document.getElementById('root')
if (!root) throw new Error('internal: #root is missing from index.html')
createRoot(root).render(
  <StrictMode>
    {/* The last resort: an exception outside the file's own boundary (App.tsx) still leaves a message. */}
    <ErrorBoundary what="the page">
      <App />
    </ErrorBoundary>
  </StrictMode>,
)

registerServiceWorker()
