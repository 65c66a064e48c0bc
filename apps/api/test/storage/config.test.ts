/** The storage settings of src/config.ts: defaults, S3, and one line per bad value. */
import { expect, it } from 'vitest'
import { loadConfig } from '../../src/config'
import { configIssues } from '../helpers/config-issues'

it('defaults to the filesystem under .data/files', () => {
  expect(loadConfig({}).storage).toEqual({
    driver: 'fs',
    dir: '.data/files',
    s3: undefined,
    filesUrl: undefined,
  })
})

it('S3 when S3_BUCKET is set', () => {
  const c = loadConfig({
    S3_BUCKET: 'spkg-files',
    S3_ENDPOINT: 'http://127.0.0.1:9000/',
    S3_REGION: 'eu-west-3',
    S3_FORCE_PATH_STYLE: 'true',
    FILES_URL: 'https://cdn.example.org/',
  })
  expect(c.storage).toEqual({
    driver: 's3',
    dir: '.data/files',
    s3: {
      bucket: 'spkg-files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-3',
      forcePathStyle: true,
    },
    filesUrl: 'https://cdn.example.org',
  })
  expect(loadConfig({ S3_BUCKET: 'b12' }).storage.s3).toEqual({
    bucket: 'b12',
    endpoint: undefined,
    region: 'us-east-1',
    forcePathStyle: false,
  })
})

it('names each bad storage setting', () => {
  expect(configIssues({ S3_BUCKET: 'No_Such Bucket' })).toEqual([
    'S3_BUCKET: must be an S3 bucket name (3-63 characters a-z 0-9 . -)',
  ])
  expect(configIssues({ S3_BUCKET: 'ok-bucket', S3_FORCE_PATH_STYLE: 'yes' })).toEqual([
    'S3_FORCE_PATH_STYLE: must be true or false',
  ])
  expect(configIssues({ S3_BUCKET: 'ok-bucket', S3_ENDPOINT: 'ftp://x' })).toEqual([
    'S3_ENDPOINT: must be an absolute http(s) URL',
  ])
  expect(configIssues({ S3_BUCKET: 'ok-bucket', S3_REGION: 'Mars/1' })).toEqual([
    'S3_REGION: must be a region name such as us-east-1',
  ])
  expect(configIssues({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual([
    'S3_ENDPOINT: is set but S3_BUCKET is not',
  ])
})
