//! Renaming a plant's pictures when a share ends: the picture and its thumbnail get new
//! unguessable names and the old files go, so that a link someone kept from while the plant
//! was shared with them stops working (pictures are served without sign-in, to `<img>` tags,
//! by name alone).

use store::{Store, plants::PlantRow};

use crate::files::{FileError, FileStore};

/// Gives the plant's uploaded picture and thumbnail new names. The share has ended whatever
/// happens here: failures are logged, and a picture edited meanwhile keeps its edit (the copies
/// made are removed again).
pub async fn rename(store: &Store, files: FileStore<'_>, plant: &PlantRow) {
    let old = [plant.image_url.as_str(), plant.thumb_url.as_str()];
    let mut new = [old[0].to_string(), old[1].to_string()];
    // The copies made, by position: only these are ever removed on the way back.
    let mut made = [false, false];
    for i in 0..2 {
        if old[i].is_empty() {
            continue;
        }
        match copy(files, old[i]).await {
            Ok(Some(url)) => {
                new[i] = url;
                made[i] = true;
            }
            // Not one of ours (or gone): kept as it is.
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(plant = %plant.id, %e, "plant picture not renamed after a share ended");
                undo(files, &new, made).await;
                return;
            }
        }
    }
    if made == [false, false] {
        return;
    }
    let swapped = store
        .replace_plant_pictures(plant.id, (old[0], old[1]), (&new[0], &new[1]))
        .await;
    match swapped {
        Ok(true) => {
            for i in 0..2 {
                if made[i] {
                    files.remove_upload(old[i]).await;
                }
            }
        }
        Ok(false) => undo(files, &new, made).await,
        Err(e) => {
            tracing::warn!(plant = %plant.id, %e, "plant picture not renamed after a share ended");
            undo(files, &new, made).await;
        }
    }
}

async fn undo(files: FileStore<'_>, new: &[String; 2], made: [bool; 2]) {
    for i in 0..2 {
        if made[i] {
            files.remove_upload(&new[i]).await;
        }
    }
}

/// A copy of an uploaded plant picture under a new name; `None` when `url` is not one.
async fn copy(files: FileStore<'_>, url: &str) -> Result<Option<String>, FileError> {
    let Some(name) = url.strip_prefix("/files/plants/") else {
        return Ok(None);
    };
    if name.is_empty() || name.contains('/') || name.contains("..") {
        return Ok(None);
    }
    let Some(bytes) = files.get(&format!("uploads/plants/{name}")).await? else {
        return Ok(None);
    };
    let ext = name.rsplit_once('.').map_or("jpg", |(_, e)| e);
    Ok(Some(files.upload("plants", ext, &bytes).await?))
}
