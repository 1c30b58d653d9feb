//! The server in process on port 0 with SQLite and no workers, shared by the API and page tests.

use std::path::Path;
use std::time::Duration;

use grundy_judge::Languages;
use grundy_problems::Catalogue;
use grundy_server::{AppState, RequestLimits, auth};
use grundy_store::{Role, Store, User};
use tokio::sync::oneshot;

pub struct Server {
    pub url: String,
    /// Follows no redirects, so tests see each 303 and where it points (the page tests').
    #[allow(dead_code)]
    pub client: reqwest::Client,
    pub state: AppState,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    pub async fn start(dir: &Path, limits: RequestLimits) -> Server {
        let store = Store::open_sqlite(&dir.join("grundy.db")).await.unwrap();
        let state = AppState::new(
            store,
            Catalogue::builtin().unwrap(),
            Languages::load(None).unwrap(),
            limits,
        );
        state.load_problems().await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(grundy_server::serve(state.clone(), listener, async move {
            let _ = stopped.await;
        }));
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        Server {
            url,
            client,
            state,
            stop: Some(stop),
            task: Some(tokio::spawn(async move {
                task.await.unwrap().unwrap();
            })),
        }
    }

    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.task.take().unwrap().await.unwrap();
        self.state.store.close().await;
    }

    /// A user whose password is `<name>-password`.
    pub async fn create_user(&self, name: &str, role: Role) -> User {
        let hash = auth::hash_password(&format!("{name}-password")).unwrap();
        self.state
            .store
            .create_user(name, role, Some(&hash), grundy_server::now_ms())
            .await
            .unwrap()
    }
}

/// A zip of `(path, text)` files: a problem package to upload.
pub fn zip_of(files: &[(&str, &str)]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, text) in files {
        zip.start_file(*path, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}
